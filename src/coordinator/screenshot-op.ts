// The `screenshot` op: a geometry case's document, served and sealed as for a dump, answered with
// a PNG of each engine's 800×600 viewport (bytes here; base64 only in the answer line).
import type { ScreenshotRequest } from '../protocol/screenshot-schema.js';
import type { WireValue } from '../protocol/wire.js';
import type { ScreenshotResult } from '../farm/tasks.js';
import { errorsField, inEngineOrder, scheduleCase, type CaseContext } from './schedule.js';

export async function screenshotOp(request: ScreenshotRequest, ctx: CaseContext): Promise<Record<string, WireValue | undefined>> {
  const { result, errors } = await scheduleCase<ScreenshotResult>(ctx, request, 'geometry', { kind: 'screenshot' });
  return { id: request.id, images: inEngineOrder(result?.images ?? {}), errors: errorsField(errors) };
}
