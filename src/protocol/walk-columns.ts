// A walk's columns as they cross from a worker to the coordinator beside an answer (a campaign's
// vote, to judge a candidate on): the coordinates as the bytes of their doubles, and each style
// value once, with the index of its value per cell, as bytes too. msgpack moves bytes as they are,
// and a walk repeats few style values (tens, in thousands of cells), so this packs and unpacks in
// a third of the time the plain arrays take.
import type { WalkColumns } from './page-output.js';
import type { EngineName } from './common.js';

export interface PackedColumns {
  overflowed: boolean;
  scrollbars: [number, number];
  tags: string[];
  parents: number[];
  rectCounts: number[];
  /** The bytes of a Float64Array of each node's x, y, w, h. */
  bounding: Uint8Array;
  /** The bytes of a Float64Array of each fragment's x, y, w, h. */
  rects: Uint8Array;
  /** Each distinct style value, in order of first use. */
  values: string[];
  /** The bytes of a Uint32Array: per style cell (node × property, as WalkColumns.styles), its value's index in `values`. */
  styles: Uint8Array;
}

/** Each engine's walk, packed. */
export type EngineColumns = Partial<Record<EngineName, PackedColumns>>;

const bytesOf = (array: Float64Array | Uint32Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** A copy of `bytes` (which may sit at any offset of a larger buffer) as the typed array it holds. */
function copied<T>(bytes: Uint8Array, as: new (buffer: ArrayBuffer) => T): T {
  const own = new Uint8Array(bytes.byteLength);
  own.set(bytes);
  return new as(own.buffer);
}

/** A walk's columns, packed to travel. */
export function packColumns({ overflowed, scrollbars, tags, parents, rectCounts, bounding, rects, styles }: WalkColumns): PackedColumns {
  const index = new Map<string, number>();
  const cells = new Uint32Array(styles.length);
  for (let i = 0; i < styles.length; i++) {
    let at = index.get(styles[i]!);
    if (at === undefined) {
      at = index.size;
      index.set(styles[i]!, at);
    }
    cells[i] = at;
  }
  return {
    overflowed,
    scrollbars,
    tags,
    parents,
    rectCounts,
    bounding: bytesOf(Float64Array.from(bounding)),
    rects: bytesOf(Float64Array.from(rects)),
    values: [...index.keys()],
    styles: bytesOf(cells),
  };
}

/** The columns a packed walk stands for. */
export function unpackColumns(packed: PackedColumns): WalkColumns {
  const cells = copied(packed.styles, Uint32Array);
  const styles = new Array<string>(cells.length);
  for (let i = 0; i < cells.length; i++) styles[i] = packed.values[cells[i]!]!;
  return {
    overflowed: packed.overflowed,
    scrollbars: packed.scrollbars,
    tags: packed.tags,
    parents: packed.parents,
    rectCounts: packed.rectCounts,
    bounding: copied(packed.bounding, Float64Array),
    rects: copied(packed.rects, Float64Array),
    styles,
  };
}
