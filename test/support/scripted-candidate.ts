// Candidates a test writes for itself: a small Node program whose behaviour on each case is the
// test's own code, with a prelude that speaks the protocol's easy part. It answers its ping (as
// `scripted`, or the name given), and gives the test's `onCase(request, n, answer)` every case
// line it reads (n counts from 1); `answer(request, width)` is the answer line of a dump whose
// root is `width` px wide, so that a test can tell whose answer it got. `say(text)` writes raw
// text to stdout. The script lives in a fresh folder, and its command line is returned.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STYLE_PROPERTIES } from '../../src/protocol/common.js';

const PRELUDE = `
const { createInterface } = require('node:readline');
const { spawn } = require('node:child_process');
const style = Object.fromEntries(${JSON.stringify(STYLE_PROPERTIES)}.map((p) => [p, '0px']));
const dumpOf = (width) => ({
  engine: 'scripted', engine_version: '1', viewport: { width: 800, height: 600 }, overflowed: false,
  nodes: [{ index: 0, parent: -1, tag: 'HTML', depth: 0, bounding: { x: 0, y: 0, w: width, h: 1 }, rects: [{ x: 0, y: 0, w: width, h: 1 }], style }],
});
const say = (text) => process.stdout.write(text);
const answer = (request, width) => JSON.stringify({ id: request.id, dump: dumpOf(width) }) + '\\n';
let n = 0;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const request = JSON.parse(line);
  if (request.op === 'ping') return say(JSON.stringify({ id: request.id, ok: true, name: NAME, version: '1' }) + '\\n');
  onCase(request, ++n, answer);
});
`;

/**
 * The command line of a candidate whose cases `onCase` (the source of a function `(request, n,
 * answer) => …`) handles, after `extra` (declarations of its own); its ping gives `name`.
 */
export function scriptedCandidate(onCase: string, extra = '', name = 'scripted'): string {
  const dir = mkdtempSync(join(tmpdir(), 'scripted-candidate-'));
  const file = join(dir, 'candidate.cjs');
  writeFileSync(file, `const NAME = ${JSON.stringify(name)};\n${PRELUDE}\n${extra}\nfunction onCase(request, n, answer) {\n${onCase}\n}\n`);
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`;
}
