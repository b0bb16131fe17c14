// A reference candidate as a process: the candidate protocol on stdio (docs/candidate.md). One
// JSON line in, one answer line out, in order: `{"op":"ping"}` gets the name, version and what the
// candidate supports; a case (`id`, `html`, optional `script` or `mutations`, `site`, `authored`) gets a dump (with
// `fresh` beside it for mutations), `unsupported` or an error. Other fields of a geometry request line (engines, timing) are ignored, so oracle corpus
// lines can be piped in as they are. The process ends when its input does.
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { CandidateAnswer, CandidateCase, CandidatePingAnswer, ReferenceCandidate } from '../protocol/candidate-schema.js';
import { layOutCase, type LayoutEngine } from './engine.js';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { MutationsSchema, type Mutation } from '../protocol/mutations-schema.js';
import { mutationsProblem } from '../protocol/mutation-check.js';
import { describeValueError } from '../protocol/validate.js';
import { SiteSchema, siteProblem, type Site } from '../protocol/site-schema.js';
import type { FontMode } from './web/text.js';

const checkMutations = TypeCompiler.Compile(MutationsSchema);
const checkSite = TypeCompiler.Compile(SiteSchema);

/** Loaded on demand, so a process runs one engine's WebAssembly only. */
export async function referenceEngine(name: ReferenceCandidate): Promise<LayoutEngine> {
  return name === 'taffy' ? (await import('./taffy/engine.js')).taffy : (await import('./yoga/engine.js')).yoga;
}

/** Answers one input line. */
export function answerLine(engine: LayoutEngine, line: string, fonts: FontMode): CandidateAnswer | CandidatePingAnswer {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { id: '', error: 'invalid_json: the line is not JSON' };
  }
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const id = typeof record.id === 'string' ? record.id : '';
  if (record.op === 'ping') return { id, ok: true, name: engine.name, version: engine.version, supports: engine.supports(fonts) };
  if (record.op !== undefined)
    return { id, error: `invalid_request: unknown op ${JSON.stringify(record.op)} (a candidate takes ping and cases)` };
  if (
    typeof record.id !== 'string' ||
    typeof record.html !== 'string' ||
    (record.script !== undefined && typeof record.script !== 'string') ||
    (record.authored !== undefined && !isAuthored(record.authored))
  ) {
    return {
      id,
      error:
        'invalid_request: a case is {"id": string, "html": string, "script"?: string, "mutations"?: [mutation, …], "site"?: {"path", "files"}, "authored"?: {"scope"?: [string]}}',
    };
  }
  const { html, script, mutations, authored, site } = record as {
    html: string;
    script?: string;
    mutations?: unknown;
    authored?: CandidateCase['authored'];
    site?: unknown;
  };
  if (site !== undefined) {
    const problem = checkSite.Check(site)
      ? siteProblem(site)
      : describeValueError(((e) => ({ ...e, path: `/site${e.path}` }))(checkSite.Errors(site).First()!));
    if (problem) return { id, error: `invalid_request: ${problem}` };
  }
  if (mutations !== undefined) {
    const problem = checkMutations.Check(mutations)
      ? mutationsProblem(html, mutations)
      : describeValueError(((e) => ({ ...e, path: `/mutations${e.path}` }))(checkMutations.Errors(mutations).First()!));
    if (problem) return { id, error: `invalid_request: ${problem}` };
  }
  return layOutCase(
    engine,
    {
      id,
      html,
      ...(script === undefined ? {} : { script }),
      ...(mutations === undefined ? {} : { mutations: mutations as Mutation[] }),
      ...(authored ? { authored } : {}),
      ...(site === undefined ? {} : { site: site as Site }),
    },
    fonts,
  );
}

/** Serves the candidate protocol until `input` ends; resolves with the exit status. */
export async function serveCandidate(name: ReferenceCandidate, fonts: FontMode, input: Readable, output: Writable): Promise<number> {
  const engine = await referenceEngine(name);
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!line.trim()) continue;
    if (!output.write(`${JSON.stringify(answerLine(engine, line, fonts))}\n`)) await once(output, 'drain');
  }
  return 0;
}

/** A case's `authored`: {scope?: [selector, …]}. */
const isAuthored = (value: unknown): value is CandidateCase['authored'] => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { scope, ...rest } = value as { scope?: unknown };
  return Object.keys(rest).length === 0 && (scope === undefined || (Array.isArray(scope) && scope.every((s) => typeof s === 'string')));
};
