// What comes back from a page is untrusted input: the trusted programs made it, but a page that
// broke them, or a document that is not the case's own, could have made anything. Each answer is
// parsed here and checked — shape, types, lengths that agree, finite numbers, parents that are
// integers in [-1, index) — before any of it reaches an answer. Anything else is `page_tampered`.
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { decodeAuthored } from './authored-output.js';
import type { AuthoredReading } from './authored-schema.js';
import { STYLE_PROPERTIES, strict } from './common.js';
import { OracleError } from './errors.js';
import { pngSize } from './png.js';
import { IdlValueSchema, type IdlValue } from './reflect-schema.js';
import { TraceSchema, type TraceRecord } from './trace-schema.js';

const Finite = Type.Number();
const Count = Type.Integer({ minimum: 0 });

/** The walk of one document, as src/page/walk.ts writes it: tags and style values are indexes into `strings`. */
const PageWalkSchema = Type.Object(
  {
    viewport: Type.Tuple([Finite, Finite]),
    ratio: Finite,
    overflowed: Type.Boolean(),
    /** The room the viewport's scrollbars took: innerWidth − visualViewport.width, innerHeight − visualViewport.height. */
    scrollbars: Type.Tuple([Finite, Finite]),
    /** Each distinct tag and style value once. */
    strings: Type.Array(Type.String()),
    /** Per node, document order. */
    tags: Type.Array(Count),
    parents: Type.Array(Type.Integer({ minimum: -1 })),
    /** 4 numbers per node: x, y, width, height (zeroed when the node has no fragments). */
    bounding: Type.Array(Finite),
    rectCounts: Type.Array(Count),
    /** 4 numbers per fragment, nodes in order. */
    rects: Type.Array(Finite),
    /** STYLE_PROPERTIES.length per node. */
    styles: Type.Array(Count),
    /** The parsed document holds something that could run script (decides the fast path; see src/workers/host/fast-path.ts). */
    scriptCapable: Type.Boolean(),
    /** Milliseconds loading the document, measured in the page. */
    loadMs: Finite,
    /** Milliseconds of the walk itself (including the style and layout it forces), measured in the page. */
    walkMs: Finite,
    /** The relayout check's second walk, after a fresh layout of the same document: a walk itself (decoded as one), without a relayout of its own. */
    relayout: Type.Optional(Type.Unknown()),
    /** The check-layout reading (src/page/authored.ts), when asked: decoded by authored-output.ts. */
    authored: Type.Optional(Type.Unknown()),
  },
  strict,
);

/** A checked walk, its tags and style values looked up; `relayout`, the relayout check's second walk. */
export type RawWalk = Omit<Static<typeof PageWalkSchema>, 'strings' | 'tags' | 'styles' | 'relayout' | 'authored'> & {
  tags: string[];
  styles: string[];
  relayout?: RawWalk;
  authored?: AuthoredReading;
};

/** The parts of a page walk the comparator reads: a whole RawWalk will do, or its coordinates as Float64Arrays (src/protocol/walk-columns.ts). */
export type WalkColumns = Pick<RawWalk, 'overflowed' | 'scrollbars' | 'tags' | 'parents' | 'rectCounts' | 'styles'> & {
  bounding: ArrayLike<number>;
  rects: ArrayLike<number>;
};

const Elsewhere = Type.Object({ elsewhere: Type.String() }, strict);
const TooLarge = Type.Object(
  { tooLarge: Type.Object({ nodes: Count, fragments: Type.Optional(Count), bytes: Type.Optional(Count) }, strict) },
  strict,
);
const Failed = Type.Object({ failed: Type.String() }, strict);
const ScriptError = Type.Object({ scriptError: Type.String() }, strict);

const checkWalkAnswer = TypeCompiler.Compile(Type.Union([PageWalkSchema, Elsewhere, TooLarge, Failed, ScriptError]));
const checkBatch = TypeCompiler.Compile(
  Type.Union([
    Type.Object(
      // swapped: per walk, whether the case was parsed off the page and swapped in rather than written.
      { walks: Type.Array(Type.Unknown()), swapped: Type.Optional(Type.Array(Type.Boolean())), failed: Type.Optional(Type.String()) },
      strict,
    ),
    Elsewhere,
  ]),
);
const checkReflection = TypeCompiler.Compile(
  Type.Union([
    Type.Object({ values: Type.Array(Type.Tuple([Type.Union([Type.String(), Type.Null()]), IdlValueSchema])) }, strict),
    Type.Object({ unresolved: Type.String(), invalid: Type.Boolean() }, strict),
    TooLarge,
    Elsewhere,
    Failed,
    ScriptError,
  ]),
);
const checkSettled = TypeCompiler.Compile(
  Type.Union([Type.Object({ settled: Type.Literal(true) }, strict), Elsewhere, Failed, ScriptError]),
);
const PageStateSchema = Type.Object({ href: Type.String(), viewport: Type.Tuple([Finite, Finite]), ratio: Finite }, strict);
const checkPageState = TypeCompiler.Compile(PageStateSchema);

/** A page answer that is not a result: the page is not on the case's document, or the case's script threw. */
export type Detour = { elsewhere: string } | { scriptError: string };

export type WalkAnswer = { walk: RawWalk } | { tooLarge: Static<typeof TooLarge>['tooLarge'] } | Detour;
export type ReflectAnswer =
  | { values: [string | null, IdlValue][] }
  | { unresolved: string; invalid: boolean }
  | { tooLarge: Static<typeof TooLarge>['tooLarge'] }
  | Detour;

const tampered = (what: string) => new OracleError('page_tampered', `the page's ${what}; its page was replaced`);

function parse(text: unknown, what: string): unknown {
  if (typeof text !== 'string') throw tampered(`${what} is not JSON text`);
  try {
    return JSON.parse(text);
  } catch {
    throw tampered(`${what} is not JSON`);
  }
}

/** One walk, checked through and through, and its relayout walk the same way. */
export function decodeWalk(value: unknown): WalkAnswer {
  if (!checkWalkAnswer.Check(value)) throw tampered('walk does not have the walk’s shape');
  if ('failed' in value) throw tampered(`walk failed (${value.failed})`);
  if (!('tags' in value)) return value;
  const { relayout, authored, ...walk } = value;
  const checked = checkedWalk(walk);
  if (authored !== undefined) checked.authored = decodeAuthored(authored, checked.tags.length);
  if (relayout === undefined) return { walk: checked };
  if (!checkWalkAnswer.Check(relayout) || !('tags' in relayout) || relayout.relayout !== undefined || relayout.authored !== undefined)
    throw tampered('relayout walk does not have the walk’s shape');
  return { walk: { ...checked, relayout: checkedWalk(relayout) } };
}

function checkedWalk(value: Omit<Static<typeof PageWalkSchema>, 'relayout' | 'authored'>): RawWalk {
  const { strings, parents, bounding, rectCounts, rects, ...rest } = value;
  const n = value.tags.length;
  if (parents.length !== n || bounding.length !== 4 * n || rectCounts.length !== n || value.styles.length !== STYLE_PROPERTIES.length * n) {
    throw tampered('walk has lists whose lengths disagree');
  }
  const lookUp = (at: number) => {
    if (at >= strings.length) throw tampered(`walk refers to string ${at} of ${strings.length}`);
    return strings[at]!;
  };
  const tags = value.tags.map(lookUp);
  if (tags.includes('')) throw tampered('walk has an element without a tag name');
  let fragments = 0;
  for (let i = 0; i < n; i++) {
    // Document order: a parent precedes its children, and only the root has none.
    if (parents[i]! >= i || (parents[i] === -1) !== (i === 0)) throw tampered(`walk gives node ${i} the parent ${parents[i]}`);
    fragments += rectCounts[i]!;
  }
  if (rects.length !== 4 * fragments) throw tampered('walk has fragment counts that disagree with its fragments');
  for (const list of [bounding, rects, value.viewport, [value.ratio, value.loadMs, value.walkMs]]) {
    for (const x of list) if (!Number.isFinite(x)) throw tampered('walk holds a number that is not finite');
  }
  return { ...rest, tags, parents, bounding, rectCounts, rects, styles: value.styles.map(lookUp) };
}

/** The answer of the walk program (or the guard's walk). */
export const decodeWalkText = (text: unknown): WalkAnswer => decodeWalk(parse(text, 'walk'));

/** The answer of the batch program: each walk is decoded on its own, so one bad walk does not condemn the rest. */
export function decodeBatchText(text: unknown): { walks: unknown[]; swapped?: boolean[]; failed?: string } | { elsewhere: string } {
  const value = parse(text, 'batch');
  if (!checkBatch.Check(value)) throw tampered('batch does not have the batch’s shape');
  return value;
}

/** The reflect program's answer, for `probeCount` probes. */
export function decodeReflectionText(text: unknown, probeCount: number): ReflectAnswer {
  const value = parse(text, 'reflection');
  if (!checkReflection.Check(value)) throw tampered('reflection does not have the reflection’s shape');
  if ('failed' in value) throw tampered(`reflection failed (${value.failed})`);
  if ('values' in value && value.values.length !== probeCount) throw tampered('reflection answers another number of probes');
  return value;
}

/** The settle program's answer (fonts settled, after the case's script when it has one): null when settled. */
export function decodeSettledText(text: unknown): Detour | null {
  const value = parse(text, 'settle answer');
  if (!checkSettled.Check(value)) throw tampered('settle answer does not have its shape');
  if ('failed' in value) throw tampered(`settle program failed (${value.failed})`);
  return 'settled' in value ? null : value;
}

/** A screenshot's bytes and the size its PNG header claims; anything that does not start as a PNG is page_tampered. */
export function decodeScreenshot(bytes: unknown): { png: Uint8Array; width: number; height: number } {
  const size = bytes instanceof Uint8Array ? pngSize(bytes) : null;
  if (!size) throw tampered('screenshot is not a PNG');
  return { png: bytes as Uint8Array, ...size };
}

/** Where a page is, and its viewport. */
export function decodePageStateText(text: unknown): Static<typeof PageStateSchema> {
  const value = parse(text, 'state');
  if (!checkPageState.Check(value)) throw tampered('state does not have the state’s shape');
  return value;
}

// A trace comes back as JSON text the recorder wrote (a string crosses every driver as it is):
// parsed and checked against the record schema, then encoded again by the caller, so nothing of
// the page's text reaches an answer.
const checkOutcome = TypeCompiler.Compile(
  Type.Tuple([Type.String(), Type.Boolean(), Type.Boolean(), Type.Union([Type.Array(Type.Unknown()), Type.Null()])]),
);
const checkRecords = TypeCompiler.Compile(Type.Array(TraceSchema.properties.records.items));

/** A finished trace as the recorder answered it: where and how it ran, and its records (null: over the byte budget). */
export interface TraceOutcome {
  origin: string;
  secure: boolean;
  timedOut: boolean;
  records: TraceRecord[] | null;
}

/** The recorder's answer, or where the page is when it is not the case's trace page. */
export function decodeTraceText(text: unknown): TraceOutcome | { elsewhere: string } {
  const value = parse(text, 'trace');
  if (Array.isArray(value) && value.length === 2 && typeof value[1] === 'string') {
    if (value[0] === 'elsewhere') return { elsewhere: value[1] };
    // On WebKitGTK: the page replaced a built-in its WebDriver runs on while it loaded.
    if (value[0] === 'tampered')
      throw tampered(`${JSON.stringify(value[1].slice(0, 100))} was replaced while it loaded, a built-in WebKitGTK's WebDriver runs on`);
  }
  if (!checkOutcome.Check(value)) throw tampered('trace does not have the trace’s shape');
  const [origin, secure, timedOut, records] = value;
  if (records !== null && !checkRecords.Check(records)) throw tampered('trace records do not have the records’ shape');
  return { origin, secure, timedOut, records };
}
