// A `reflect-corpus` session: a file of reflect requests through an oracle in this process, each
// answer voted per observation, and a table of each case's agreement.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Oracle } from '../../api/oracle.js';
import { describeObservation, voteReflect, type ReflectVoteResult } from '../../comparator/reflect-vote.js';
import type { LaunchOptions } from '../../protocol/launch-options.js';
import type { ReflectRequest, ReflectResponse } from '../../protocol/reflect-schema.js';
import { parseRequestLine } from '../../protocol/validate.js';
import type { ClusterVerdict } from '../../protocol/vote-schema.js';

/** The corpus shipped with the repository (this module runs as dist/src/tools/reflect-corpus/session.js). */
export const DEFAULT_CORPUS = fileURLToPath(new URL('../../../../corpus/reflect.jsonl', import.meta.url));

export interface CorpusResult {
  request: ReflectRequest;
  response: ReflectResponse;
  vote: ReflectVoteResult;
}

/** The corpus's requests, each validated as the oracle would; ids must be unique to match answers. */
export function readCorpus(file: string): ReflectRequest[] {
  const requests: ReflectRequest[] = [];
  const ids = new Set<string>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      const parsed = parseRequestLine(line);
      const where = `${file}:${i + 1}`;
      if (!parsed.ok) throw new Error(`${where}: ${parsed.error.wireText}`);
      if (parsed.op !== 'reflect') throw new Error(`${where}: not a reflect request`);
      const request = parsed.request as ReflectRequest;
      if (ids.has(request.id)) throw new Error(`${where}: id ${JSON.stringify(request.id)} is used twice`);
      ids.add(request.id);
      requests.push(request);
    });
  return requests;
}

/** Runs `requests` on a fresh oracle launched with `options` and votes each answer, in corpus order. */
export async function runCorpus(requests: readonly ReflectRequest[], options: LaunchOptions = { workers: 1 }): Promise<CorpusResult[]> {
  const oracle = await Oracle.launch(options);
  try {
    const responses = await Promise.all(requests.map((request) => oracle.reflect(request)));
    return requests.map((request, i) => ({ request, response: responses[i]!, vote: voteReflect(responses[i]!) }));
  } finally {
    await oracle.close();
  }
}

/** One row per case, its disagreeing observations under it, then the totals. */
export function formatTable(results: readonly CorpusResult[]): string[] {
  const width = Math.max(4, ...results.map((r) => r.request.id.length));
  const lines = [`${'case'.padEnd(width)}  agreement`];
  for (const { request, response, vote } of results) {
    const errors = response.errors ? `  errors: ${JSON.stringify(response.errors)}` : '';
    lines.push(`${request.id.padEnd(width)}  ${vote.verdict}${vote.outlier ? ` (${vote.outlier})` : ''}${errors}`);
    for (const o of vote.observations) if (o.verdict !== 'unanimous') lines.push(`${''.padEnd(width)}    ${describeObservation(o)}`);
  }
  const count = (verdict: ClusterVerdict) => `${results.filter((r) => r.vote.verdict === verdict).length} ${verdict}`;
  lines.push(`${results.length} cases: ${(['unanimous', 'outlier', 'split', 'insufficient'] as const).map(count).join(', ')}`);
  return lines;
}
