// Deleting several ranges of one string at once.

/** A half-open range [start, end) of a string. */
export type Range = readonly [start: number, end: number];

/** `text` without the union of `ranges` (which may overlap or come in any order). */
export function spliceOut(text: string, ranges: readonly Range[]): string {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of sorted) {
    if (start > at) out += text.slice(at, start);
    at = Math.max(at, end);
  }
  return out + text.slice(at);
}
