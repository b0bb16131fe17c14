// A screenshot on each engine: the case's own document, loaded, settled and scripted as for a walk,
// then a picture of its viewport, checked to be an 800×600 PNG. The bytes go back as msgpack
// binary; only the answer writer turns them into text.
import type { ScreenshotResult, ScreenshotTask } from '../farm/tasks.js';
import { forEachEngine } from './for-each-engine.js';
import type { WorkerContext } from './worker-context.js';

export async function runScreenshot(task: ScreenshotTask, ctx: WorkerContext): Promise<ScreenshotResult> {
  const result: ScreenshotResult = { images: {}, errors: {} };
  await forEachEngine(task.engines, ctx.hosts, result.errors, async (engine, host) => {
    // Always by navigation, never the fast path: a picture is taken of a page that shows the case.
    result.images[engine] = await host.submit<Uint8Array>({
      kind: 'screenshot',
      document: { ...task.documents[engine]!, freshStorage: false },
      script: task.script,
    });
  });
  return result;
}
