// node dist/bench/campaign.js [--cases=N] [--seed=S] [--rounds=R] [--text] [--workers=W] [--pages=P] [--concurrency=C]
//
// What the journal costs: the same generated corpus through the stdio oracle (every case sent
// as the `vote` with dumps and in-page times that a campaign asks for, all pipelined, answers
// parsed, as a fuzzing client would) and through `browser-oracle campaign` into a fresh journal,
// alternately, `rounds` times each, in one run (absolute figures drift on a shared machine; the
// ratio is the result). Both are timed from the first case sent to the last answered or
// recorded, so neither pays for starting the engines. Then, since shared cores make those rates
// drift, the journal's own cost measured apart: the last campaign's answers replayed through
// building each case's record and writing it into a fresh journal, on this thread alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { generateCases } from '../src/campaign/generator/generator.js';
import { requestLine } from '../src/campaign/generator/emit.js';
import { votedRecord } from '../src/campaign/loop/case-record.js';
import { contentHash } from '../src/campaign/corpus/case-hash.js';
import { Journal } from '../src/campaign/journal/journal.js';
import { Checkpointer } from '../src/campaign/journal/checkpointer.js';
import { plainJson, type JsonText } from '../src/protocol/wire.js';
import type { Answer } from '../src/protocol/ops.js';
import type { Dump } from '../src/protocol/schema.js';
import type { VoteResult } from '../src/protocol/vote-schema.js';
import { OracleProcess } from '../test/support/oracle-process.js';
import { runCli } from '../test/support/campaign-process.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const cases = flag('cases', 300);
const seed = flag('seed', 1);
const rounds = flag('rounds', 2);
const text = args.includes('--text');
const farmArgs = args.filter((a) => a.startsWith('--workers=') || a.startsWith('--pages='));
const campaignArgs = args.filter((a) => a.startsWith('--concurrency='));

const dir = mkdtempSync(join(tmpdir(), 'bench-campaign-'));
const corpus = join(dir, 'corpus.ndjson');
const lines = [...generateCases({ count: cases, seed, text })].map(requestLine);
writeFileSync(corpus, lines.join('\n') + '\n');

/** The stdio oracle: every case as a vote with dumps and times, all at once; cases/s from the first sent to the last answered. */
async function stdio(round: number): Promise<number> {
  const oracle = new OracleProcess(farmArgs);
  await oracle.ready();
  const start = performance.now();
  const answers = await Promise.all(
    lines.map((line) => {
      const request = JSON.parse(line) as { id: string };
      return oracle.request({ ...request, id: `${round}/${request.id}`, op: 'vote', dumps: true, timing: true });
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await oracle.shutdown();
  if (answers.length !== cases) throw new Error('the stdio oracle lost answers');
  return cases / seconds;
}

/** `campaign` into a fresh journal; cases/s as its closing line reports it (first sent to last recorded). */
async function campaign(round: number): Promise<number> {
  const db = join(dir, `round-${round}.sqlite`);
  // Not --quiet: that hides the closing line too, and its rate is what this reads. Off a TTY,
  // progress is one status line every few seconds.
  const run = await runCli(['campaign', '--db', db, '--corpus', corpus, ...farmArgs, ...campaignArgs]);
  const done = /campaign: done: (\d+) case\(s\) recorded .*\(([\d.]+) cases\/s\)\n$/.exec(run.stderr);
  if (run.code !== 0 || !done || Number(done[1]) !== cases) throw new Error(`campaign failed (exit ${run.code}):\n${run.stderr}`);
  return Number(done[2]);
}

/** Milliseconds per case to build the records of a recorded campaign's answers and write them to a fresh journal. */
async function replay(db: string): Promise<number> {
  const read = new Database(db, { readonly: true });
  const rows = read
    .prepare<[], { seq: number; id: string; request: string; vote: string }>('SELECT seq, id, request, vote FROM cases')
    .all();
  const outcomes = read.prepare<[number], { engine: string; result: string }>('SELECT engine, result FROM outcomes WHERE case_seq = ?');
  // The answers as the oracle hands them over: JSON text made on the page side, unparsed.
  const answers = rows.map((row) => {
    const request = JSON.parse(row.request) as { id: string; html: string };
    const dumps: Record<string, JsonText<Dump>> = {};
    for (const o of outcomes.all(row.seq)) dumps[o.engine] = plainJson(JSON.parse(o.result) as Dump);
    const answer = { id: row.id, vote: plainJson(JSON.parse(row.vote) as VoteResult), dumps } as Answer<'vote'>;
    return {
      item: { ok: true as const, id: row.id, hash: contentHash(request), given: row.request, request },
      answered: { answer, versions: {} },
    };
  });
  read.close();
  const path = join(dir, 'replay.sqlite');
  const journal = Journal.open(path);
  journal.startRun({ command: ['bench'], engines: [], versions: {}, fonts: null });
  // As a campaign writes: checkpoints from a thread of their own.
  journal.autoCheckpoint(false);
  const checkpointer = new Checkpointer(path, () => journal.autoCheckpoint(true));
  const start = performance.now();
  for (const { item, answered } of answers)
    journal.record(votedRecord(item, answered, { startedAt: Date.now(), elapsedMs: 1, attempts: 1 }));
  const ms = (performance.now() - start) / answers.length;
  await checkpointer.stop();
  journal.close();
  return ms;
}

const rates: { stdio: number[]; campaign: number[] } = { stdio: [], campaign: [] };
let journalMs: number;
try {
  for (let round = 0; round < rounds; round++) {
    rates.stdio.push(await stdio(round));
    process.stderr.write(`bench: round ${round + 1}: stdio ${rates.stdio.at(-1)!.toFixed(2)} cases/s\n`);
    rates.campaign.push(await campaign(round));
    process.stderr.write(`bench: round ${round + 1}: campaign ${rates.campaign.at(-1)!.toFixed(2)} cases/s\n`);
  }
  journalMs = await replay(join(dir, `round-${rounds - 1}.sqlite`));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
console.log(
  `${cases} generated cases (seed ${seed}${text ? ', text' : ''}), farm ${farmArgs.join(' ') || 'defaults'}` +
    `${campaignArgs.length ? `, ${campaignArgs.join(' ')}` : ''}, ${rounds} round(s) each, alternating:`,
);
console.log(`  stdio oracle (vote + dumps, pipelined):   ${mean(rates.stdio).toFixed(2)} cases/s  (${list(rates.stdio)})`);
console.log(`  campaign (journal, status lines):         ${mean(rates.campaign).toFixed(2)} cases/s  (${list(rates.campaign)})`);
console.log(`  campaign / stdio: ${(mean(rates.campaign) / mean(rates.stdio)).toFixed(3)}`);
console.log(
  `  the journal's own work (record + SQLite write, main thread): ${journalMs.toFixed(2)} ms per case, ` +
    `${((journalMs / (1000 / mean(rates.stdio))) * 100).toFixed(1)} % of the stdio oracle's time per case`,
);
