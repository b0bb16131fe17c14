// A walk's columns as they cross from a worker to the coordinator beside an answer (a campaign's
// vote, to judge a candidate on): its shape, and the coordinates as the bytes of their doubles,
// which msgpack moves as they are. The styles do not travel: a candidate is judged by geometry
// alone (they never change a verdict), and packing them was most of the packing's and the
// transfer's time (0.05 of 0.07 ms a case, and half the transfer's, measured on generated cases).
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
}

/** Each engine's walk, packed. */
export type EngineColumns = Partial<Record<EngineName, PackedColumns>>;

const bytesOf = (array: Float64Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** A walk's columns, packed to travel: its styles left behind. */
export function packColumns({ overflowed, scrollbars, tags, parents, rectCounts, bounding, rects }: WalkColumns): PackedColumns {
  return {
    overflowed,
    scrollbars,
    tags,
    parents,
    rectCounts,
    bounding: bytesOf(new Float64Array(bounding)),
    rects: bytesOf(new Float64Array(rects)),
  };
}
