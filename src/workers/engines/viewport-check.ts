// Every page an adapter opens is measured before it takes a case: a page of another size or
// device pixel ratio would give dumps of another layout.
import type { EngineName } from '../../protocol/common.js';
import { VIEWPORT, type EnginePage } from '../engine.js';

/** Throws unless `page` (of `engine`) is VIEWPORT at device pixel ratio 1, as its pageState program sees it. */
export async function checkViewport(engine: EngineName, page: EnginePage): Promise<void> {
  const state = JSON.parse(await page.run({ program: 'pageState', args: {} })) as { viewport: [number, number]; ratio: number };
  const [width, height] = state.viewport;
  if (width !== VIEWPORT.width || height !== VIEWPORT.height || state.ratio !== 1) {
    throw new Error(`${engine}: a new page is ${width}×${height} at ratio ${state.ratio}, not ${VIEWPORT.width}×${VIEWPORT.height} at 1`);
  }
}
