// What every adapter's `emulate` shares: each feature the request asks for is applied on its own,
// and ends as applied, unsupported (the adapter has no way to apply it) or failed with the
// driver's first line; only the page or browser going away ends the whole call.
import { firstLine } from '../../protocol/errors.js';
import { requestedFeatures, type Emulate, type EmulationFeature, type FeatureOutcome } from '../../protocol/emulation-schema.js';
import type { Emulated } from '../engine.js';

/** How an adapter applies each feature it can: resolves once its driver confirmed it, rejects with the driver's refusal. */
export type FeatureWork = Partial<Record<EmulationFeature, () => Promise<void>>>;

/**
 * Runs the work of every feature `emulate` asks for at once. A feature without work is
 * `unsupported`; one whose work throws is `failed: <first line>`, unless `gone` makes the error a
 * page that went away, which rejects the whole call.
 */
export async function applyEach(
  emulate: Emulate,
  work: FeatureWork,
  gone: (error: unknown) => Error | undefined,
  undo: () => Promise<void> = async () => {},
): Promise<Emulated> {
  const outcomes: Partial<Record<EmulationFeature, FeatureOutcome>> = {};
  await Promise.all(
    requestedFeatures(emulate).map(async (feature) => {
      const apply = work[feature];
      if (!apply) {
        outcomes[feature] = 'unsupported';
        return;
      }
      try {
        await apply();
        outcomes[feature] = 'applied';
      } catch (error) {
        const lost = gone(error);
        if (lost) throw lost;
        outcomes[feature] = `failed: ${firstLine(error)}`;
      }
    }),
  );
  return { outcomes, undo };
}

/** The angle WebDriver BiDi gives an orientation type on a screen whose natural orientation is `natural`. */
export function orientationAngle(natural: 'portrait' | 'landscape', type: string): number {
  const order =
    natural === 'landscape'
      ? ['landscape-primary', 'portrait-primary', 'landscape-secondary', 'portrait-secondary']
      : ['portrait-primary', 'landscape-primary', 'portrait-secondary', 'landscape-secondary'];
  return 90 * order.indexOf(type);
}
