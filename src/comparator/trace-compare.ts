// Compares two traces, record by record in order (the contract's way), or by label (a request's
// `"align": "label"`). The result, as JSON:
//
//   verdict   "pass" | "fail" | "count_mismatch" (the contract's CountMismatch: the record
//             counts differ, and there is no sound way to pair up the rest, so no record is
//             compared; never by label)
//   failures  [{seq?, kind, ...}], one per failing check, in record order:
//               kind "count_mismatch"  a, b: the two record counts
//               kind "timed_out"       a, b: one trace ended at the timeout, the other by done()
//               kind "secure_context"  a, b: is_secure_context differs
//               kind "missing"         seq, label, a, b: by label only, a record only one trace has
//                                      (a, b: whether each has it)
//               kind "record"          seq, field ("kind" | "label" | "type" | "name" | "state"), a, b
//               kind "value"           seq, path (JSON-pointer-like, from the record), a, b: a
//                                      structural difference (keys, lengths, types, leaves)
//               kind "buffer"          seq, path, failed, max_abs_delta: decoded samples of a
//                                      buffer payload outside BUFFER_TOLERANCE (normalized units)
//
// By label, the n-th record of a label pairs with the n-th record of the same label in the other
// trace, and `seq` is the pair's place in the aligned list (`alignByLabel`): every label either
// trace recorded, in code-unit order, each as often as the trace that has it most. Every failure
// at a seq then carries its `label` too.
//
// Values compare exactly except the payload (`base64`) of a $buffer, $imageData or an
// $audioBuffer channel: its samples are decoded by element type and compared within
// BUFFER_TOLERANCE, since two engines' DSP and rasterizer rounding differ more than layout does.
// timed_out and is_secure_context are compared too: a trace that never finished, or ran without
// a secure context, observed something else even when its records happen to match.
import type { Trace, TraceAlignment, TraceRecord } from '../protocol/trace-schema.js';
import type { TraceCompareResult, TraceFailure } from '../protocol/trace-vote-schema.js';

/**
 * |a − b| ≤ absolute + relative · max(|a|, |b|), on samples normalized to unit range: integer
 * samples are divided by their type's largest value (a pixel channel's step is 1/255), float
 * samples are taken as they are (audio is already in [−1, 1]). The absolute part is looser than
 * geometry's 1/60.
 */
export const BUFFER_TOLERANCE = { relative: 0.01, absolute: 0.02 } as const;

export type { TraceCompareResult, TraceFailure };
export type TraceCompareVerdict = TraceCompareResult['verdict'];

/** Where a failure is: its seq, and its label when records are paired by label. */
type At = { seq: number; label?: string };

export type TraceSide = Pick<Trace, 'timed_out' | 'is_secure_context' | 'records'>;

/** Records placed by label: `labels[i]` is the label of row i, and `rows[t][i]` trace t's record there, if it has one. */
export interface LabelAlignment {
  labels: string[];
  rows: (TraceRecord | undefined)[][];
}

/**
 * Aligns `traces` by label: every label any of them recorded, in code-unit order, as many times
 * as the trace that recorded it most; the n-th row of a label holds each trace's n-th record of
 * it. A pure function of the record multisets' labels and per-label order, so the traces' order
 * of push between labels does not matter.
 */
export function alignByLabel(traces: readonly Pick<Trace, 'records'>[]): LabelAlignment {
  const byLabel = traces.map((t) => {
    const groups = new Map<string, TraceRecord[]>();
    for (const r of t.records) {
      const group = groups.get(r.label);
      if (group) group.push(r);
      else groups.set(r.label, [r]);
    }
    return groups;
  });
  const names = [...new Set(byLabel.flatMap((g) => [...g.keys()]))].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const labels: string[] = [];
  const rows: (TraceRecord | undefined)[][] = traces.map(() => []);
  for (const name of names) {
    const depth = Math.max(...byLabel.map((g) => g.get(name)?.length ?? 0));
    for (let n = 0; n < depth; n++) {
      labels.push(name);
      byLabel.forEach((g, t) => {
        rows[t]!.push(g.get(name)?.[n]);
      });
    }
  }
  return { labels, rows };
}

export function compareTraces(a: TraceSide, b: TraceSide, align: TraceAlignment = 'seq'): TraceCompareResult {
  if (align === 'label') {
    const { labels, rows } = alignByLabel([a, b]);
    return compareAligned(a, b, labels, rows[0]!, rows[1]!);
  }
  if (a.records.length !== b.records.length) {
    return { verdict: 'count_mismatch', failures: [{ kind: 'count_mismatch', a: a.records.length, b: b.records.length }] };
  }
  const failures = wholeTraceFailures(a, b);
  a.records.forEach((ra, seq) => {
    compareRecord({ seq }, ra, b.records[seq]!, failures);
  });
  return verdictOf(failures);
}

/** Two traces compared row by row of a label alignment (`ra`, `rb`: their rows of it). */
export function compareAligned(
  a: TraceSide,
  b: TraceSide,
  labels: readonly string[],
  ra: readonly (TraceRecord | undefined)[],
  rb: readonly (TraceRecord | undefined)[],
): TraceCompareResult {
  const failures = wholeTraceFailures(a, b);
  labels.forEach((label, seq) => {
    const x = ra[seq];
    const y = rb[seq];
    if (x && y) compareRecord({ seq, label }, x, y, failures);
    else if (x || y) failures.push({ seq, label, kind: 'missing', a: x !== undefined, b: y !== undefined });
  });
  return verdictOf(failures);
}

function wholeTraceFailures(a: TraceSide, b: TraceSide): TraceFailure[] {
  const failures: TraceFailure[] = [];
  if (a.timed_out !== b.timed_out) failures.push({ kind: 'timed_out', a: a.timed_out, b: b.timed_out });
  if (a.is_secure_context !== b.is_secure_context)
    failures.push({ kind: 'secure_context', a: a.is_secure_context, b: b.is_secure_context });
  return failures;
}

const verdictOf = (failures: TraceFailure[]): TraceCompareResult => ({ verdict: failures.length ? 'fail' : 'pass', failures });

const RECORD_FIELDS = ['kind', 'label', 'type', 'name', 'state'] as const;

function compareRecord(at: At, a: TraceRecord, b: TraceRecord, failures: TraceFailure[]): void {
  const fa = a as Record<string, unknown>;
  const fb = b as Record<string, unknown>;
  for (const field of RECORD_FIELDS) {
    if (fa[field] !== fb[field]) {
      failures.push({ ...at, kind: 'record', field, a: fa[field], b: fb[field] });
      if (field === 'kind') return; // different kinds have different fields
    }
  }
  if ('value' in a && 'value' in b) compareValue(at, '/value', a.value, b.value, failures);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function compareValue(at: At, path: string, a: unknown, b: unknown, failures: TraceFailure[]): void {
  const va = a as Json;
  const vb = b as Json;
  if (Array.isArray(va) && Array.isArray(vb)) {
    if (va.length !== vb.length) return void failures.push({ ...at, kind: 'value', path: `${path}/length`, a: va.length, b: vb.length });
    va.forEach((x, i) => {
      compareValue(at, `${path}/${i}`, x, vb[i], failures);
    });
    return;
  }
  if (isObject(va) && isObject(vb)) {
    const ka = Object.keys(va);
    const kb = Object.keys(vb);
    if (ka.join('\0') !== kb.join('\0')) return void failures.push({ ...at, kind: 'value', path, a: ka, b: kb });
    for (const key of ka) {
      const where = `${path}/${key}`;
      if (key === 'base64' && typeof va.elementType === 'string' && va.elementType === vb.elementType) {
        compareSamples(at, where, va.elementType, String(va.base64), String(vb.base64), failures);
      } else {
        compareValue(at, where, va[key], vb[key], failures);
      }
    }
    return;
  }
  if (!Object.is(va, vb)) failures.push({ ...at, kind: 'value', path, a: va, b: vb });
}

const isObject = (v: Json): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Element type → how its bytes decode, and the value that normalizes a sample to unit range (a Map: the type is the trace's text). */
const SAMPLE_TYPES = new Map<string, [new (buffer: ArrayBuffer) => ArrayLike<number>, number]>([
  ['Int8Array', [Int8Array, 127]],
  ['Uint8Array', [Uint8Array, 255]],
  ['Uint8ClampedArray', [Uint8ClampedArray, 255]],
  ['Int16Array', [Int16Array, 32767]],
  ['Uint16Array', [Uint16Array, 65535]],
  ['Int32Array', [Int32Array, 2147483647]],
  ['Uint32Array', [Uint32Array, 4294967295]],
  ['Float32Array', [Float32Array, 1]],
  ['Float64Array', [Float64Array, 1]],
  // Untyped bytes.
  ['DataView', [Uint8Array, 255]],
  ['ArrayBuffer', [Uint8Array, 255]],
]);

function compareSamples(at: At, path: string, elementType: string, a: string, b: string, failures: TraceFailure[]): void {
  const type = SAMPLE_TYPES.get(elementType);
  // BigInt arrays (and any type not listed) have no tolerance to apply: bytes must match.
  if (!type) {
    if (a !== b) failures.push({ ...at, kind: 'value', path, a, b });
    return;
  }
  const [View, scale] = type;
  const sa = decode(View, a);
  const sb = decode(View, b);
  if (sa.length !== sb.length) return void failures.push({ ...at, kind: 'value', path: `${path}/length`, a: sa.length, b: sb.length });
  let failed = 0;
  let max = 0;
  for (let i = 0; i < sa.length; i++) {
    const x = sa[i]! / scale;
    const y = sb[i]! / scale;
    if (Number.isNaN(x) && Number.isNaN(y)) continue;
    const d = Math.abs(x - y);
    if (!(d <= BUFFER_TOLERANCE.absolute + BUFFER_TOLERANCE.relative * Math.max(Math.abs(x), Math.abs(y)))) failed++;
    if (d > max || Number.isNaN(d)) max = Number.isNaN(d) ? Infinity : d;
  }
  if (failed) failures.push({ ...at, kind: 'buffer', path, failed, max_abs_delta: max });
}

function decode(View: new (buffer: ArrayBuffer) => ArrayLike<number>, base64: string): ArrayLike<number> {
  const bytes = Buffer.from(base64, 'base64');
  // A fresh, aligned copy: a Float64Array cannot view an odd offset of Node's pooled buffer.
  return new View(new Uint8Array(bytes).buffer);
}
