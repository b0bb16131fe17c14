// A small real candidate process for the process client's tests: it speaks the candidate protocol
// and misbehaves on demand. A case's html is a number, and its dump's root is that many px wide,
// so a test can tell which case an answer belongs to (other html: as many px as it has characters). Flags (each counts the cases this process
// has seen, from 1):
//   --crash-on N     exits without answering its Nth case
//   --hang-on N      hangs on its Nth case: never answers it, nor reads another line
//   --garbage-on N   answers its Nth case with a line that is not JSON
//   --invalid-on N   answers its Nth case with JSON that is not a candidate answer
//   --stale-on N     answers another id before its Nth case's own answer
//   --batch N        answers nothing until it has read N cases, then those N, last first
//   --no-ping        never answers a ping
//   --stderr TEXT    writes TEXT to stderr on every case
import { createInterface } from 'node:readline';
import { STYLE_PROPERTIES } from '../../src/protocol/common.js';

const flag = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const nth = (name: string) => Number(flag(name) ?? 0);

const style = Object.fromEntries(STYLE_PROPERTIES.map((p) => [p, '0px']));
const dumpOf = (width: number) => ({
  engine: 'flaky',
  engine_version: '1',
  viewport: { width: 800, height: 600 },
  overflowed: false,
  nodes: [
    {
      index: 0,
      parent: -1,
      tag: 'HTML',
      depth: 0,
      bounding: { x: 0, y: 0, w: width, h: 1 },
      rects: [{ x: 0, y: 0, w: width, h: 1 }],
      style,
    },
  ],
});

let cases = 0;
const held: string[] = [];
const say = (value: unknown) => process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line) as { id: string; op?: string; html?: string };
  if (request.op === 'ping') {
    if (process.argv.includes('--no-ping')) continue;
    say({ id: request.id, ok: true, name: 'flaky', version: '1' });
    continue;
  }
  cases++;
  const text = flag('--stderr');
  if (text) process.stderr.write(`${text}\n`);
  if (cases === nth('--crash-on')) process.exit(3);
  if (cases === nth('--hang-on')) await new Promise(() => {});
  if (cases === nth('--stale-on')) say({ id: 'some-earlier-case', dump: dumpOf(999) });
  if (cases === nth('--garbage-on')) say('this is not json');
  else if (cases === nth('--invalid-on')) say({ id: request.id, dump: { engine: 'flaky' } });
  else {
    const answer = JSON.stringify({
      id: request.id,
      dump: dumpOf(Number.isFinite(Number(request.html)) ? Number(request.html) : request.html!.length),
    });
    if (!nth('--batch')) say(answer);
    else if (held.push(answer) === nth('--batch')) for (const line of held.splice(0).reverse()) say(line);
  }
}
