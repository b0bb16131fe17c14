// node dist/bench/candidate-stages.js [--cases=N] [--seed=S] [--rounds=R] [--engine=taffy|yoga]
//
// Where a reference candidate's time goes, in this process, on the cases bench/candidate.ts runs
// (generated inside what the candidate supports, under --fonts=square): each stage of a case
// through the adapter (src/candidate-reference/engine.ts), its answer line, and the oracle's side of that
// answer — the line parsed, checked against the candidate schema, and judged against three
// browser dumps (the candidate's own dump under each browser's name, so every comparison runs
// whole). A warm-up round runs other cases first (the next seed's), so that the caches hold what a
// campaign's would after as many cases, not these cases themselves; then `rounds` rounds of the
// seed's cases are counted. The figures are CPU ms per case (process.cpuUsage around each stage;
// wall time on a shared machine is mostly other processes'). The load average is printed beside them.
import { loadavg } from 'node:os';
import { generateCases } from '../src/campaign/generator/generator.js';
import { candidateRecord } from '../src/campaign/loop/candidate-record.js';
import { layOutCase, STAGES, type StageRunner } from '../src/candidate-reference/engine.js';
import { referenceEngine } from '../src/candidate-reference/serve.js';
import { readAnswerLine } from '../src/candidate-client/answer-line.js';
import { answerOutcome } from '../src/candidate-client/process-source.js';
import type { ReferenceCandidate } from '../src/protocol/candidate-schema.js';
import { ENGINE_NAMES } from '../src/protocol/schema.js';
import { packResult, unpackResult } from '../src/protocol/wire.js';
import { packColumns } from '../src/protocol/walk-columns.js';
import { columnarFromPacked } from '../src/comparator/columnar.js';
import { voteColumnar } from '../src/comparator/vote.js';
import { rawFromDump } from '../test/fixtures/dumps/load.js';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const flag = (name: string, fallback: number) => Number(option(name) ?? fallback);
const cases = flag('cases', 1000);
const seed = flag('seed', 3);
const rounds = flag('rounds', 2);
const name = (option('engine') ?? 'taffy') as ReferenceCandidate;

const engine = await referenceEngine(name);
const casesOf = (s: number) => [
  ...generateCases({ count: cases, seed: s, text: false, script: false, relayout: false, supports: engine.supports('square') }),
];
const warmUp = casesOf(seed + 1);
const requests = casesOf(seed);

const SIDE = ['answer line', 'read line', 'check', 'columns', 'judge'] as const;
type Row = (typeof STAGES)[number] | (typeof SIDE)[number];
const totals = new Map<Row, number>();
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const time = <T>(row: Row, run: () => T): T => {
  const start = cpuMs();
  try {
    return run();
  } finally {
    totals.set(row, (totals.get(row) ?? 0) + cpuMs() - start);
  }
};
const stage: StageRunner = (s, run) => time(s, run);

let dumps = 0;
const load = loadavg().map((l) => l.toFixed(2));
for (let round = 0; round <= rounds; round++) {
  if (round === 1) totals.clear();
  dumps = 0;
  for (const request of round === 0 ? warmUp : requests) {
    const answer = layOutCase(engine, { id: request.id, html: request.html }, 'square', stage);
    const line = time('answer line', () => JSON.stringify(answer));
    const bytes = Buffer.from(line); // as it comes over the pipe
    const read = time('read line', () => readAnswerLine(bytes));
    const outcome = time('check', () => answerOutcome(read.value, engine.name, read.dump));
    if (outcome.kind !== 'dump') continue;
    dumps++;
    // The browsers' outcomes, as the journal records them (dump JSON per engine), and their walks'
    // columns as a campaign's vote answers with them: packed in the worker, unpacked here.
    const outcomes = ENGINE_NAMES.map((e) => ({ engine: e, result: JSON.stringify({ ...outcome.dump, engine: e }), error: null }));
    const walks = Object.fromEntries(ENGINE_NAMES.map((e) => [e, packColumns(rawFromDump({ ...outcome.dump, engine: e }))]));
    const columns = time('columns', () => unpackResult<typeof walks>(packResult(walks)));
    // The engines' vote, which a campaign's worker takes beside the engines and the judge reuses.
    const vote = voteColumnar({ dumps: Object.fromEntries(ENGINE_NAMES.map((e) => [e, columnarFromPacked(walks[e]!, e)])) });
    time('judge', () => candidateRecord({ name: engine.name, version: engine.version }, outcome, outcomes, { columns, vote }));
  }
}
const perCase = (row: Row) => (totals.get(row) ?? 0) / rounds / requests.length;
const adapter = STAGES.reduce((n, s) => n + perCase(s), 0);
const side = SIDE.reduce((n, s) => n + perCase(s), 0);

console.log(
  `${name} candidate stages: ${requests.length} cases (seed ${seed}), ${dumps} dumps, ${rounds} round(s) after a warm-up on seed ${seed + 1}`,
);
console.log(`load average before: ${load.join(' ')}`);
for (const row of [...STAGES, ...SIDE]) console.log(`  ${row.padEnd(12)} ${perCase(row).toFixed(3).padStart(7)} CPU ms/case`);
console.log(`  adapter      ${adapter.toFixed(3).padStart(7)} ms/case (the stages above the answer line)`);
console.log(`  line + judge ${side.toFixed(3).padStart(7)} ms/case`);
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
