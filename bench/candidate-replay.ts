// node dist/bench/candidate-replay.js ANSWERS — a candidate that answers instantly from answers
// recorded before (bench/candidate.ts records a reference candidate's): its ping answer on the
// first line of ANSWERS, then one answer line per case, found by the case's id. With it beside
// the engines, what a campaign spends beyond a run without a candidate is the oracle's own work
// per candidate case, and this process's, which it says on stderr as it ends (its CPU in ms).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [ping, ...answers] = readFileSync(process.argv[2]!, 'utf8').trimEnd().split('\n');
const byId = new Map(answers.map((line) => [(JSON.parse(line) as { id: string }).id, line]));

for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  const { id, op } = JSON.parse(line) as { id: string; op?: string };
  const answer = op === 'ping' ? ping : byId.get(id);
  process.stdout.write(`${answer ?? JSON.stringify({ id, error: `replay_missing: no recorded answer for ${id}` })}\n`);
}
const { user, system } = process.cpuUsage();
process.stderr.write(`replay cpu ${((user + system) / 1000).toFixed(1)} ms\n`);
