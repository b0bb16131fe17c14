// A dump in columnar form: built once per dump, then compared any number of times without
// touching per-node objects. Geometry lives in typed arrays, tags are small integers, and
// each node's reference origin for the relative-offset rule is resolved here, not per compare.
import { STYLE_PROPERTIES, type Dump } from '../protocol/schema.js';
import type { WalkColumns } from '../protocol/page-output.js';
import type { PackedColumns } from '../protocol/walk-columns.js';

const STYLE_COUNT = STYLE_PROPERTIES.length;

/**
 * Tag names to small integers, so the shape check compares ints. One table per thread
 * (module state): ids are only meaningful next to the table that issued them, which is why
 * every columnar dump carries a reference to it and `compare` refuses dumps from two tables
 * (e.g. one built in another worker and structured-cloned over).
 */
class TagTable {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  intern(tag: string): number {
    let id = this.ids.get(tag);
    if (id === undefined) {
      id = this.names.push(tag) - 1;
      this.ids.set(tag, id);
    }
    return id;
  }

  name(id: number): string {
    return this.names[id]!;
  }
}

const TAGS = new TagTable();

export interface ColumnarDump {
  /** The engine name as the dump gave it; a candidate engine may use any name. */
  readonly engine: string;
  readonly overflowed: boolean;
  /**
   * Its viewport's scrollbars took no room (0×0; a candidate has none): an overflowed dump is then
   * laid out in the whole viewport and is compared as any other (docs/protocol.md, "A page with
   * files of its own"). False where the room is unknown (a dump without the answer's `scrollbars`).
   */
  readonly roomless: boolean;
  readonly count: number;
  readonly tagTable: TagTable;
  readonly tags: Int32Array;
  readonly parents: Int32Array;
  readonly depths: Int32Array;
  /**
   * Per node, the nearest ancestor that has a box, or -1 for the viewport. A node without
   * fragments has a zeroed bounding box that is a placeholder, not a position, so it must
   * not serve as the origin its descendants are measured from.
   */
  readonly anchors: Int32Array;
  /** x, y, w, h per node. */
  readonly bounding: Float64Array;
  /** Node i's fragments are fragments [fragmentStart[i], fragmentStart[i+1]) (in rects of 4). */
  readonly fragmentStart: Int32Array;
  /** x, y, w, h per fragment. */
  readonly fragments: Float64Array;
  /** STYLE_PROPERTIES.length values per node, in the contract's order. */
  readonly styles: readonly string[];
}

/** A dump whose structure contradicts itself; the message names the first bad node. */
export class InvalidDumpError extends Error {
  override name = 'InvalidDumpError';
}

/** A candidate's scrollbar room: it draws no scrollbars, so its overflowed dump is laid out in the whole viewport. */
export const CANDIDATE_SCROLLBARS = { x: 0, y: 0 } as const;

/**
 * From the wire form; the engine may be any name, since a candidate's dump is converted too.
 * `scrollbars`: the room the engine's viewport scrollbars took, where the answer says (`scrollbars`).
 * `styles: false` leaves every style empty, for a dump that is judged by geometry alone.
 */
export function columnarFromDump(
  dump: Omit<Dump, 'engine'> & { engine: string },
  scrollbars?: { readonly x: number; readonly y: number },
  { styles: withStyles = true }: { styles?: boolean } = {},
): ColumnarDump {
  const nodes = dump.nodes;
  const count = nodes.length;
  const { tags, parents, depths, anchors, fragmentStart } = intColumns(count);
  const bounding = new Float64Array(count * 4);
  let fragmentTotal = 0;
  for (let i = 0; i < count; i++) fragmentTotal += nodes[i]!.rects.length;
  const fragments = new Float64Array(fragmentTotal * 4);
  const styles = withStyles ? new Array<string>(count * STYLE_COUNT) : undefined;
  let f = 0;
  for (let i = 0; i < count; i++) {
    const node = nodes[i]!;
    if (node.index !== i) throw new InvalidDumpError(`node ${i}: has index ${node.index}`);
    tags[i] = TAGS.intern(node.tag);
    parents[i] = node.parent;
    depths[i] = node.depth;
    putRect(bounding, i * 4, node.bounding);
    fragmentStart[i] = f;
    for (const rect of node.rects) putRect(fragments, 4 * f++, rect);
    if (styles) for (let s = 0; s < STYLE_COUNT; s++) styles[i * STYLE_COUNT + s] = node.style[STYLE_PROPERTIES[s]!]!;
  }
  fragmentStart[count] = f;
  return finish({
    engine: dump.engine,
    overflowed: dump.overflowed,
    roomless: scrollbars !== undefined && scrollbars.x === 0 && scrollbars.y === 0,
    count,
    tags,
    parents,
    depths,
    anchors,
    bounding,
    fragmentStart,
    fragments,
    styles: styles ?? blankStyles(count),
  });
}

/** Straight from the page walk's flat arrays, skipping the wire form entirely. */
export function columnarFromRaw(raw: WalkColumns, engine: string): ColumnarDump {
  return fromColumns(raw, raw.styles, engine, new Float64Array(raw.bounding), new Float64Array(raw.rects));
}

function expectEntries(what: string, actual: number, wanted: number): void {
  if (actual !== wanted) throw new InvalidDumpError(`raw walk: ${what} has ${actual} entries, expected ${wanted}`);
}

/** A walk's columns, their styles and coordinates given as the arrays the dump keeps. */
function fromColumns(
  raw: Omit<WalkColumns, 'bounding' | 'rects' | 'styles'>,
  styles: readonly string[],
  engine: string,
  bounding: Float64Array,
  fragments: Float64Array,
): ColumnarDump {
  const count = raw.tags.length;
  expectEntries('parents', raw.parents.length, count);
  expectEntries('rectCounts', raw.rectCounts.length, count);
  expectEntries('bounding', bounding.length, count * 4);
  expectEntries('styles', styles.length, count * STYLE_COUNT);
  const { tags, parents, depths, anchors, fragmentStart } = intColumns(count);
  parents.set(raw.parents);
  for (let i = 0; i < count; i++) {
    tags[i] = TAGS.intern(raw.tags[i]!);
    const p = parents[i]!;
    // Depth is derived, as on the wire (depthsOf); a bad parent is caught by `finish`.
    depths[i] = p >= 0 && p < i ? depths[p]! + 1 : 0;
    fragmentStart[i + 1] = fragmentStart[i]! + raw.rectCounts[i]!;
  }
  expectEntries('rects', fragments.length, fragmentStart[count]! * 4);
  return finish({
    engine,
    overflowed: raw.overflowed,
    roomless: raw.scrollbars[0] === 0 && raw.scrollbars[1] === 0,
    count,
    tags,
    parents,
    depths,
    anchors,
    bounding,
    fragmentStart,
    fragments,
    styles,
  });
}

/**
 * From a walk's columns as they crossed from a worker (src/protocol/walk-columns.ts), each array
 * made once: the coordinates straight from their bytes. The styles did not travel: every value is
 * empty, as a candidate is judged by geometry alone.
 */
export function columnarFromPacked(packed: PackedColumns, engine: string): ColumnarDump {
  return fromColumns(packed, blankStyles(packed.tags.length), engine, float64s(packed.bounding), float64s(packed.rects));
}

/** The doubles whose bytes these are: a view where they are aligned, else one copy. */
function float64s(bytes: Uint8Array): Float64Array {
  if (bytes.byteOffset % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  // A copy by set (a memcpy): `from` goes element by element, and a Buffer's slice is a view.
  const aligned = new Uint8Array(bytes.byteLength);
  aligned.set(bytes);
  return new Float64Array(aligned.buffer);
}

/** Empty styles for `count` nodes, one array per count up to BLANK_CACHED (never written: a dump's arrays are only read). */
const BLANK_CACHED = 256;
const blanks = new Map<number, readonly string[]>();
function blankStyles(count: number): readonly string[] {
  let blank = blanks.get(count);
  if (!blank) {
    blank = new Array<string>(count * STYLE_COUNT).fill('');
    if (count <= BLANK_CACHED) blanks.set(count, blank);
  }
  return blank;
}

function putRect(into: Float64Array, at: number, rect: { x: number; y: number; w: number; h: number }): void {
  into[at] = rect.x;
  into[at + 1] = rect.y;
  into[at + 2] = rect.w;
  into[at + 3] = rect.h;
}

/**
 * A dump's integer columns, as views of one buffer: one allocation, where an array each made five
 * (each with a store of its own past 64 bytes), and a candidate's case builds four dumps.
 */
function intColumns(count: number) {
  const all = new Int32Array(5 * count + 1);
  return {
    tags: all.subarray(0, count),
    parents: all.subarray(count, 2 * count),
    depths: all.subarray(2 * count, 3 * count),
    anchors: all.subarray(3 * count, 4 * count),
    fragmentStart: all.subarray(4 * count),
  };
}

/**
 * Checks the tree is well formed (every parent precedes its child, depths follow parents) —
 * the compare loop indexes parents without bounds checks — and resolves the anchors.
 */
function finish(dump: Omit<ColumnarDump, 'tagTable'>): ColumnarDump {
  const { count, parents, depths, anchors, fragmentStart } = dump;
  for (let i = 0; i < count; i++) {
    const p = parents[i]!;
    if (p < -1 || p >= i) throw new InvalidDumpError(`node ${i}: parent ${p} does not precede it`);
    const depth = p < 0 ? 0 : depths[p]! + 1;
    if (depths[i] !== depth) throw new InvalidDumpError(`node ${i}: depth ${depths[i]}, but its parent's depth makes it ${depth}`);
    anchors[i] = p < 0 || fragmentStart[p + 1]! > fragmentStart[p]! ? p : anchors[p]!;
  }
  // One literal in one order, not a spread: every columnar dump then has one shape, which keeps the
  // compare loop's loads monomorphic, and the spread cost more than the checks above.
  return {
    engine: dump.engine,
    overflowed: dump.overflowed,
    roomless: dump.roomless,
    count,
    tagTable: TAGS,
    tags: dump.tags,
    parents,
    depths,
    anchors,
    bounding: dump.bounding,
    fragmentStart,
    fragments: dump.fragments,
    styles: dump.styles,
  };
}
