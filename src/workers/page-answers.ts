// What the trusted programs' answers mean for a case, shared by the fast path and the ops' tasks:
// a walk measured at another viewport or a page off the case's document is the page's fault
// (PageFault), a case's script that threw or a document over the limits is the case's.
import { OracleError } from '../protocol/errors.js';
import { decodeSettledText, type Detour, type RawWalk } from '../protocol/page-output.js';
import type { EngineName } from '../protocol/schema.js';
import type { CaseCheck } from '../page/programs.js';
import { discardingCompletion } from '../page/sources.js';
import { VIEWPORT } from '../protocol/common.js';
import type { EnginePage } from './engine.js';

/**
 * Thrown when a page is not in the state the oracle left it in: not on the case's document, not
 * at the oracle's viewport, or answering what the trusted code cannot have made. The page's
 * fault, not the case's: the case runs once more on a fresh page.
 */
export class PageFault extends Error {
  override name = 'PageFault';
}

/** The case's script as a program call carries it. */
export const caseScript = (script: string | null | undefined): string | null =>
  script === null || script === undefined ? null : discardingCompletion(script);

/**
 * A viewport other than VIEWPORT at device pixel ratio 1 (a new page's, as its pageState program
 * sees it, or the one a case was walked in) means the page is off (a download bar, a window of
 * another size): its fault, not the case's. `what` says what the page did there.
 */
export function checkViewport(engine: EngineName, what: string, measured: Pick<RawWalk, 'viewport' | 'ratio'>): void {
  const [width, height] = measured.viewport;
  if (width === VIEWPORT.width && height === VIEWPORT.height && measured.ratio === 1) return;
  throw new PageFault(
    `${engine} ${what} in a ${width}×${height} viewport at device pixel ratio ${measured.ratio}, not ${VIEWPORT.width}×${VIEWPORT.height} at 1`,
  );
}

export const leftDocument = (href: string) => new PageFault(`the page is not on the case's document (it is at ${href.slice(0, 200)})`);

/** Why a program did not answer: the page left the case's document (the page's fault), or the case's script threw (the case's). */
export const detourError = (detour: Detour) =>
  'elsewhere' in detour ? leftDocument(detour.elsewhere) : new OracleError('script_error', detour.scriptError);

/**
 * Settles the case's document (fonts, and a layout from scratch when `fresh`), runs `script`
 * after, waits for a paint when asked, and throws unless the answer came from the case's own document.
 */
export async function settle(
  page: EnginePage,
  args: { check: CaseCheck; fresh?: boolean; painted?: boolean; wait?: string },
  script: string | null,
): Promise<void> {
  const detour = decodeSettledText(await page.run({ program: 'settle', args, script }));
  if (detour) throw detourError(detour);
}

export function tooLarge(size: { nodes: number; fragments?: number; bytes?: number }): OracleError {
  const what =
    size.fragments !== undefined
      ? `${size.fragments} fragments`
      : size.bytes !== undefined
        ? `about ${size.bytes} bytes to answer`
        : `${size.nodes} elements`;
  return new OracleError('dump_too_large', `the document has ${what}, over the limit (--max-nodes, --max-answer-bytes)`);
}
