// Known differences (`--expect FILE`), in the spirit of wptrunner's expectation metadata: the
// engines' platform differences that flood every campaign, listed once so their cases are
// recorded as `expected` and kept apart from findings. The file (docs/campaign.md, "Known
// differences"):
//
//   {"note"?: "...", "known": [entry, ...]}
//   entry = {"id", "note"?, "signature"}                        an exact bucket signature, any op
//         | {"id", "note"?, verdict?, engine?, kind?, property?, tag?, text?, max_delta?, template?}
//                                                               a rule, geometry cases only
//
// A rule matches when every field it gives holds for the case's bucket (signature.ts);
// verdict, engine, kind, property and tag take one value or a list of them (any may hold).
// `template` is a triage finding's (src/campaign/triage/template.ts, written by `triage
// --mark-known`): the case holds an instance of it whose starting element is where the case's
// difference starts. The first entry that matches names the case's known difference.
import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { GEOMETRY_KINDS, signatureOf, type Bucket } from '../../comparator/signature.js';
import { ENGINE_NAMES, STYLE_PROPERTIES } from '../../protocol/schema.js';
import { describeValueError } from '../../protocol/validate.js';
import { CampaignError } from '../campaign-error.js';
import type { CaseRequest } from '../corpus/corpus.js';
import { nodeText } from './node-text.js';
import { caseShape, embeddings } from '../triage/match.js';
import { parseTemplate, TemplateSyntaxError, type Template } from '../triage/template.js';

const anyOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const list = <T extends ReturnType<typeof Type.String> | ReturnType<typeof anyOf>>(item: T) =>
  Type.Optional(Type.Array(item, { minItems: 1 }));

/** The fields a rule may give, each a list once the file is read (a single value is taken as a list of one). */
const LIST_FIELDS = ['verdict', 'engine', 'kind', 'property', 'tag'] as const;

const EntrySchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    note: Type.Optional(Type.String()),
    signature: Type.Optional(Type.String({ minLength: 1 })),
    verdict: list(anyOf(['outlier', 'split', 'insufficient'])),
    engine: list(anyOf(ENGINE_NAMES)),
    kind: list(anyOf(GEOMETRY_KINDS)),
    property: list(anyOf(STYLE_PROPERTIES)),
    tag: list(Type.String({ minLength: 1 })),
    text: Type.Optional(Type.String()),
    max_delta: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    template: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

const FileSchema = Type.Object({ note: Type.Optional(Type.String()), known: Type.Array(EntrySchema) }, { additionalProperties: false });
const checkFile = TypeCompiler.Compile(FileSchema);

type Entry = Static<typeof EntrySchema>;
const RULE_FIELDS = [...LIST_FIELDS, 'text', 'max_delta', 'template'] as const;

/** An entry as loaded: its text rule compiled, its template read. */
type LoadedEntry = Entry & { pattern?: RegExp; shape?: Template };

/** What a case is matched on: its request (for the node's text) and its bucket (null when unanimous or invalid). */
export interface MatchInput {
  request: CaseRequest;
  bucket: Bucket | null;
  /** A geometry case's failing nodes, by index (its vote's `nodes`): where a template may start. */
  failing?: readonly number[];
}

/** A loaded --expect file. */
export class Expectations {
  private constructor(private readonly entries: readonly LoadedEntry[]) {}

  /** Reads and validates an --expect file; a CampaignError names the file and the bad field. */
  static load(path: string): Expectations {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new CampaignError(
        `--expect ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      );
    }
    return Expectations.parse(text, `--expect ${path}`);
  }

  /** Validates the text of an --expect file; `source` leads every error message. */
  static parse(text: string, source: string): Expectations {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new CampaignError(`${source}: not JSON (${(e as Error).message})`);
    }
    const given = structuredClone(value);
    asLists(value);
    if (!checkFile.Check(value)) {
      const error = checkFile.Errors(value).First()!;
      // A value given alone was checked as a list of one: name the field, not its element [0].
      const path = error.path.replace(/^(\/known\/\d+\/\w+)\/0$/, (whole, field: string) =>
        Array.isArray(pointer(given, field)) ? whole : field,
      );
      throw new CampaignError(`${source}: ${describeValueError({ ...error, path })}`);
    }
    const ids = new Map<string, number>();
    const entries = value.known.map((entry, i) => {
      const field = (name: string) => `${source}: field "known[${i}]${name ? `.${name}` : ''}"`;
      const rules = RULE_FIELDS.filter((f) => entry[f] !== undefined);
      if (entry.signature === undefined && rules.length === 0) {
        throw new CampaignError(`${field('')}: give a "signature", or at least one of ${RULE_FIELDS.join(', ')}`);
      }
      if (entry.signature !== undefined && rules.length) {
        throw new CampaignError(`${field('signature')}: an exact signature takes no rule fields (here: ${rules.join(', ')})`);
      }
      if (ids.has(entry.id)) throw new CampaignError(`${field('id')}: "${entry.id}" is already the id of known[${ids.get(entry.id)}]`);
      ids.set(entry.id, i);
      const loaded: LoadedEntry = { ...entry };
      if (entry.text !== undefined) {
        try {
          loaded.pattern = new RegExp(entry.text, 'u');
        } catch (e) {
          throw new CampaignError(`${field('text')}: not a regular expression (${(e as Error).message})`);
        }
      }
      if (entry.template !== undefined) loaded.shape = templateOf(entry.template, field('template'));
      return loaded;
    });
    return new Expectations(entries);
  }

  /** How many known differences the file lists. */
  get size(): number {
    return this.entries.length;
  }

  /** The id of the first known difference the case shows, or null (always for a unanimous or invalid case). */
  matches({ request, bucket, failing }: MatchInput): string | null {
    if (!bucket) return null;
    const signature = signatureOf(bucket);
    return (
      this.entries.find((e) => (e.signature !== undefined ? e.signature === signature : ruleHolds(e, request, bucket, failing)))?.id ?? null
    );
  }
}

/** A rule's template, which must be one a case can be matched against (no script, style sheet or other attribute). */
function templateOf(text: string, field: string): Template {
  let template: Template;
  try {
    template = parseTemplate(text);
  } catch (e) {
    if (e instanceof TemplateSyntaxError) throw new CampaignError(`${field}: ${e.message}`);
    throw e;
  }
  if (template.extras.length) throw new CampaignError(`${field}: it holds ${template.extras.join(', ')}, which no case is matched by`);
  return template;
}

function ruleHolds(rule: LoadedEntry, request: CaseRequest, b: Bucket, failing: readonly number[] = []): boolean {
  if (b.op !== 'geometry') return false;
  const f = b.first;
  const tags = rule.tag?.map((t) => t.toLowerCase());
  return (
    (!rule.verdict || rule.verdict.includes(b.verdict)) &&
    (!rule.engine || (b.outlier !== null && rule.engine.includes(b.outlier))) &&
    (!rule.kind || (f !== null && rule.kind.includes(f.kind!))) &&
    (!rule.property || f?.details.some((p) => rule.property!.includes(p as (typeof STYLE_PROPERTIES)[number])) === true) &&
    (!tags || f?.subjects.some((t) => tags.includes(t.toLowerCase())) === true) &&
    (rule.max_delta === undefined || (b.maxDelta !== null && b.maxDelta <= rule.max_delta)) &&
    (!rule.pattern || textMatches(rule.pattern, request, b)) &&
    (!rule.shape || holdsInstance(rule.shape, request, b, failing))
  );
}

/**
 * Whether a case without a script holds an instance of the template, starting at one of its failing
 * nodes, the first first: a reduction keeps the signature, not the node, and may keep the part of
 * the case where another node of the same tag and kind fails (as triage matches, triage.ts).
 */
function holdsInstance(template: Template, request: CaseRequest, b: Bucket, failing: readonly number[]): boolean {
  if (!('html' in request) || request.html === undefined || 'script' in request) return false;
  const first = b.first?.index ?? null;
  const starts = first === null ? null : [...new Set([first, ...failing])];
  return embeddings(template, caseShape(request.html), starts, { strict: true, limit: 1 }).length > 0;
}

/** The node's text is known only for a single node of a case without a script (a script may change the DOM). */
function textMatches(pattern: RegExp, request: CaseRequest, b: Bucket): boolean {
  const f = b.first;
  if (!f || f.index === null || f.subjects.length !== 1 || !('html' in request) || request.html === undefined || 'script' in request)
    return false;
  const text = nodeText(request.html, f.index, f.subjects[0]!);
  return text !== null && pattern.test(text);
}

/** Wraps each list field given as a single value into a list of one, in place. */
function asLists(value: unknown): void {
  const known = (value as { known?: unknown } | null)?.known;
  if (!Array.isArray(known)) return;
  for (const entry of known) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    for (const f of LIST_FIELDS) if (f in e && !Array.isArray(e[f])) e[f] = [e[f]];
  }
}

/** The value at a JSON-pointer-like path (`/known/0/engine`). */
function pointer(value: unknown, path: string): unknown {
  return path
    .split('/')
    .slice(1)
    .reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
}
