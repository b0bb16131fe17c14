// The `screenshot` op: on each engine, the case's own document, loaded, settled and scripted as
// for a walk, then a picture of its viewport, checked to be an 800×600 PNG. The bytes go back as
// msgpack binary; only the answer writer turns them into text.
import { inAnswerOrder } from '../../protocol/ops.js';
import { decodeScreenshot } from '../../protocol/page-output.js';
import type { EngineName } from '../../protocol/schema.js';
import type { CaseCheck } from '../../page/programs.js';
import { VIEWPORT } from '../../protocol/common.js';
import type { EnginePage } from '../engine.js';
import { PageFault } from '../page-answers.js';
import { caseScript, settle } from '../page-answers.js';
import { eachEngine, errorsField, type Task } from './task.js';

export const screenshot: Task<'screenshot'> = async (task, ctx) => {
  const script = task.request.script ?? null;
  const { results, errors } = await eachEngine(task, ctx, (engine, host) =>
    // Always by navigation, never the fast path: a picture is taken of a page that shows the case.
    host.submit({
      kind: 'document',
      document: { ...task.documents[engine]!, freshStorage: false },
      extraMs: 0,
      run: (page, check) => picture(engine, page, check, script, task.request.wait),
    }),
  );
  return inAnswerOrder('screenshot', { images: results, errors: errorsField(errors) });
};

async function picture(engine: EngineName, page: EnginePage, check: CaseCheck, script: string | null, wait?: string): Promise<Uint8Array> {
  await settle(page, { check, fresh: true, painted: true, wait }, caseScript(script));
  const shot = decodeScreenshot(await page.screenshot());
  if (shot.width !== VIEWPORT.width || shot.height !== VIEWPORT.height)
    throw new PageFault(`${engine} took a ${shot.width}×${shot.height} screenshot, not ${VIEWPORT.width}×${VIEWPORT.height}`);
  // The picture is the case's only if the case's document was in front of the page all along.
  await settle(page, { check }, null);
  return shot.png;
}
