// What the trusted programs' answers mean for a case, shared by the fast path and the ops' tasks:
// a walk measured at another viewport or a page off the case's document is the page's fault
// (PageFault), a case's script that threw or a document over the limits is the case's.
import { OracleError } from '../protocol/errors.js';
import { decodeSettledText, type Detour, type RawWalk } from '../protocol/page-output.js';
import type { EngineName } from '../protocol/schema.js';
import type { CaseCheck } from '../page/programs.js';
import { discardingCompletion } from '../page/sources.js';
import { VIEWPORT, type EnginePage } from './engine.js';
import { PageFault } from './host/jobs.js';

/** The case's script as a program call carries it. */
export const caseScript = (script: string | null | undefined): string | null =>
  script === null || script === undefined ? null : discardingCompletion(script);

/** A walk measured in another viewport means the page is off (a download bar, say): its fault, not the case's. */
export function checkViewport(engine: EngineName, walk: RawWalk): void {
  if (walk.viewport[0] === VIEWPORT.width && walk.viewport[1] === VIEWPORT.height && walk.ratio === 1) return;
  throw new PageFault(
    `${engine} measured the case in a ${walk.viewport[0]}×${walk.viewport[1]} viewport at device pixel ratio ${walk.ratio}, not ${VIEWPORT.width}×${VIEWPORT.height} at 1`,
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
  args: { check: CaseCheck; fresh?: boolean; painted?: boolean },
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
