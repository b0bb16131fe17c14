// node dist/bench/candidate-replay.js ANSWERS CORPUS — a candidate that answers instantly from
// answers recorded before (bench/candidate.ts records a reference candidate's on CORPUS): its ping
// answer on the first line of ANSWERS, then one answer line per case of CORPUS. The oracle sends
// each case under an id of its own, so a case's answer is found by its html and given that id.
// With it in a campaign, what the campaign spends beyond a run without a candidate is the
// oracle's own work per candidate case, and this process's, which it says on stderr as it ends
// (its CPU in ms).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');
const [ping, ...answers] = lines(process.argv[2]!);
const htmlOf = new Map(
  lines(process.argv[3]!).map((line) => {
    const { id, html } = JSON.parse(line) as { id: string; html: string };
    return [id, html];
  }),
);
// Each answer without its id: what follows `{"id":"…"`, to write after the oracle's id.
const byHtml = new Map<string, string>();
for (const line of answers) {
  const { id } = JSON.parse(line) as { id: string };
  byHtml.set(htmlOf.get(id)!, line.slice(`{"id":${JSON.stringify(id)}`.length));
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  const { id, op, html } = JSON.parse(line) as { id: string; op?: string; html?: string };
  const rest = op === 'ping' ? undefined : byHtml.get(html!);
  const answer =
    op === 'ping'
      ? ping!.replace(/^\{"id":"[^"]*"/, `{"id":${JSON.stringify(id)}`)
      : rest === undefined
        ? JSON.stringify({ id, error: `replay_missing: no recorded answer for this html` })
        : `{"id":${JSON.stringify(id)}${rest}`;
  process.stdout.write(`${answer}\n`);
}
const { user, system } = process.cpuUsage();
process.stderr.write(`replay cpu ${((user + system) / 1000).toFixed(1)} ms\n`);
