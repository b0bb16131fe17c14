// Writing generated cases as NDJSON: one request line per case, in order, with backpressure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { emitNdjson, requestLine } from '../../src/campaign/generator/emit.js';
import { generateCases } from '../../src/campaign/generator/generator.js';
import { parseRequestLine } from '../../src/protocol/validate.js';

test('a request line is id, html, then script when there is one, and nothing else', () => {
  assert.equal(requestLine({ id: 'a', html: '<p>' }), '{"id":"a","html":"<p>"}');
  assert.equal(requestLine({ html: '<p>', script: 'x()', id: 'b' }), '{"id":"b","html":"<p>","script":"x()"}');
});

test('every case becomes one line, in order, through a slow writer that pushes back', async () => {
  const options = { count: 60, seed: 5, text: true, script: true };
  let received = '';
  let pushedBack = 0;
  const slow = new Writable({
    highWaterMark: 256,
    write(chunk: Buffer, _encoding, done) {
      received += chunk.toString('utf8');
      void tick().then(() => done());
    },
  });
  const write = slow.write.bind(slow);
  slow.write = ((chunk: string) => {
    const ok = write(chunk);
    if (!ok) pushedBack++;
    return ok;
  }) as typeof slow.write;
  await emitNdjson(generateCases(options), slow);
  await new Promise<void>((resolve) => slow.end(resolve));
  assert.ok(pushedBack > 0, 'the writer never pushed back, so waiting for drain went untested');
  const lines = received.split('\n');
  assert.equal(lines.pop(), '', 'the last line ends with a newline');
  assert.deepEqual(lines, [...generateCases(options)].map(requestLine));
  for (const line of lines) assert.ok(parseRequestLine(line).ok, line);
});
