// The `media` launch profile on the three real engines: reported in ping and in every trace,
// and getUserMedia resolves with a fake camera and microphone (observed in all three here).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { ONE_PAGE, OracleProcess, type Line } from '../support/oracle-process.js';

let oracle: OracleProcess;
let ping: Line;

before(async () => {
  oracle = new OracleProcess([...ONE_PAGE, '--profile=media']);
  ping = await oracle.ready();
});

after(async () => {
  await oracle.shutdown();
});

test('ping reports the media profile', () => {
  assert.equal(ping.profile, 'media');
});

test('getUserMedia({video, audio}) resolves with a fake track of each kind in every engine', async () => {
  const script =
    'const p = navigator.mediaDevices.getUserMedia({ video: true, audio: true }).then((s) => { const v = s.getVideoTracks()[0].getSettings();' +
    ' const kinds = s.getTracks().map((t) => t.kind).sort(); for (const t of s.getTracks()) t.stop(); return [kinds, v.width > 0, v.height > 0]; });' +
    " trace.settle('gum', p); p.finally(() => trace.done());";
  const response = await oracle.request({ id: 'gum', op: 'trace', script });
  assert.equal(response.errors, undefined);
  for (const engine of ENGINE_NAMES) {
    const trace = response.traces[engine] as Line;
    assert.equal(trace.profile, 'media');
    assert.deepEqual(
      trace.records,
      [
        {
          seq: 0,
          kind: 'settle',
          label: 'gum',
          state: 'fulfilled',
          value: { $shape: 'array', length: 3, elements: [{ $shape: 'array', length: 2, elements: ['audio', 'video'] }, true, true] },
        },
      ],
      engine,
    );
  }
});
