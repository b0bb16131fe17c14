// The line splitter under stdin's requests and a candidate's answers and stderr: lines across
// chunks, CR LF, a line past the limit (reported with its head, as soon as it passes), the last
// line without a newline, and a cost that grows with a line's length, not with its square.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEAD_BYTES, LineSplitter, type InputLine } from '../../src/system/line-splitter.js';

const shown = (lines: InputLine[]) => lines.map((l) => ('bytes' in l ? l.bytes.toString() : `tooLong ${l.length} ${l.head.length}`));

test('lines across chunks, CR LF, empty lines, and the last line without its newline', () => {
  const splitter = new LineSplitter(100);
  assert.deepEqual(shown(splitter.push(Buffer.from('ab'))), []);
  assert.deepEqual(shown(splitter.push(Buffer.from('c\r\n\nd\n\re'))), ['abc', 'd']);
  assert.deepEqual(shown(splitter.push(Buffer.from('\nf'))), ['\re']);
  assert.deepEqual(shown([splitter.end()!]), ['f']);
  assert.equal(splitter.end(), undefined);
});

test('a line past the limit is said as it passes it, kept as its head, and reported whole when it ends', () => {
  let told = 0;
  const splitter = new LineSplitter(10_000, () => told++);
  assert.deepEqual(shown(splitter.push(Buffer.alloc(6000, 0x61))), []);
  assert.equal(told, 0);
  assert.deepEqual(shown(splitter.push(Buffer.alloc(6000, 0x62))), []);
  assert.equal(told, 1, 'before the line ends');
  assert.deepEqual(shown(splitter.push(Buffer.from('ccc\nok\n'))), [`tooLong 12003 ${HEAD_BYTES}`, 'ok']);
  assert.equal(told, 1);
});

test('a line that came in one chunk is not copied, and one in many is copied once, whatever its length', (t) => {
  // The work is the copying: counted at Buffer's own copying functions, as the bytes they copy.
  let copied = 0;
  const { concat, from } = Buffer;
  t.mock.method(Buffer, 'concat', (list: readonly Uint8Array[], length?: number) => {
    const result = concat(list, length);
    copied += result.length;
    return result;
  });
  t.mock.method(Buffer, 'from', (value: unknown, ...rest: unknown[]) => {
    const result = (from as (...args: unknown[]) => Buffer)(value, ...rest);
    if (value instanceof Uint8Array) copied += result.length;
    return result;
  });
  const chunk = new Uint8Array(64 * 1024).fill(0x78);
  for (const bytes of [1, 1000, 64 * 1024]) {
    copied = 0;
    const [line] = new LineSplitter(1 << 30).push(Buffer.concat([Buffer.alloc(bytes, 0x79), Buffer.from('\n')]));
    assert.ok(line && 'bytes' in line && line.bytes.length === bytes);
    assert.equal(copied - bytes - 1, 0, `a line of ${bytes} bytes in one chunk: ${copied - bytes - 1} bytes copied`);
  }
  for (const bytes of [64 * 1024, 1 << 20, 16 << 20, 64 << 20]) {
    copied = 0;
    const splitter = new LineSplitter(1 << 30);
    for (let sent = 0; sent < bytes; sent += chunk.length) assert.deepEqual(splitter.push(Buffer.from(chunk.buffer, 0, chunk.length)), []);
    const [ended] = splitter.push(Buffer.from([0x0a]));
    assert.ok(ended && 'bytes' in ended && ended.bytes.length === bytes);
    assert.ok(copied <= bytes + 1, `a line of ${bytes} bytes: ${copied} bytes copied`);
  }
});
