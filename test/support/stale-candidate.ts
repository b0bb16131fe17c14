// A candidate that never invalidates, for some cases: a real process speaking the candidate
// protocol, which lays each case out with the Taffy reference candidate's code, from scratch. For a
// case with mutations it answers that layout as `fresh`; as `dump`, the same layout, except on the
// cases it picks (a third of them, by their content: the oracle's ids are its own; with --every,
// all of them, so that a reduction's trials are picked as the case was), where every
// element that was in the original document keeps the box the original's layout gave it, as an
// engine that kept its old boxes would. Each picked case whose kept boxes differ from its fresh
// ones (by more than the comparator's tolerance) is written to the file after --log, one a line,
// as `caseKey` names it: the cases that must be self-disagreements, and the only ones.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { layOutCase } from '../../src/candidate-reference/engine.js';
import { applyMutations } from '../../src/candidate-reference/mutate.js';
import { referenceEngine } from '../../src/candidate-reference/serve.js';
import { parseDocument } from '../../src/candidate-reference/web/document.js';
import type { CandidateCase, CandidateDump } from '../../src/protocol/candidate-schema.js';
import { TOLERANCE } from '../../src/comparator/compare.js';
import { caseKey } from './case-key.js';

const log = process.argv[process.argv.indexOf('--log') + 1]!;
const taffy = await referenceEngine('taffy');
const NAME = 'stale';
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const renamed = (dump: CandidateDump): CandidateDump => ({ ...dump, engine: NAME });

/** `fresh` with each element of the original document given the boxes `original` laid it out with. */
function kept(
  request: CandidateCase & { mutations: NonNullable<CandidateCase['mutations']> },
  fresh: CandidateDump,
  original: CandidateDump,
) {
  const { names } = applyMutations(parseDocument(request.html), request.mutations);
  const byIndex = [...names.entries()].sort(([a], [b]) => a.index - b.index).map(([, name]) => name);
  const nodes = fresh.nodes.map((node) => {
    const name = byIndex[node.index]!;
    const old = name < original.nodes.length ? original.nodes[name]! : undefined;
    return old ? { ...node, bounding: old.bounding, rects: old.rects } : node;
  });
  const differs = nodes.some(
    (n, i) =>
      n.rects.length !== fresh.nodes[i]!.rects.length ||
      [n.bounding, ...n.rects].some((r, k) => {
        const f = [fresh.nodes[i]!.bounding, ...fresh.nodes[i]!.rects][k]!;
        return [r.x - f.x, r.y - f.y, r.w - f.w, r.h - f.h].some((d) => Math.abs(d) > TOLERANCE);
      }),
  );
  return { dump: { ...fresh, nodes }, differs };
}

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line) as CandidateCase & { op?: string };
  if (request.op === 'ping') {
    say({ id: request.id, ok: true, name: NAME, version: '1', supports: { ...taffy.supports('liberation'), mutations: true } });
    continue;
  }
  const answer = layOutCase(taffy, request, 'liberation');
  if (!('dump' in answer) || !request.mutations || !answer.fresh) {
    say('dump' in answer ? { ...answer, dump: renamed(answer.dump) } : answer);
    continue;
  }
  const fresh = renamed(answer.fresh);
  let dump = fresh;
  const key = caseKey(request.html, request.mutations);
  if (process.argv.includes('--every') || Number.parseInt(key.slice(0, 8), 16) % 3 === 0) {
    const original = layOutCase(taffy, { id: request.id, html: request.html }, 'liberation');
    if (!('dump' in original)) throw new Error(`${request.id}: the original laid out, then not: ${JSON.stringify(original)}`);
    const stale = kept({ ...request, mutations: request.mutations }, fresh, renamed(original.dump));
    dump = stale.dump;
    if (stale.differs) appendFileSync(log, `${key}\n`);
  }
  say({ id: request.id, dump, fresh, ...(answer.roots ? { roots: answer.roots } : {}) });
}
