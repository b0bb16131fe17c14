// Amounts of memory as people write them: "2GiB", "1536 MiB", "3GB" (IEC units are powers of 1024,
// SI ones of 1000), or a plain number of bytes. bytes-iec does the parsing and the formatting.
import bytes from 'bytes-iec';

/** What a size looks like, for the JSON Schema of a field that takes one (the units, in either case). */
export const SIZE_PATTERN = '^[0-9]+(\\.[0-9]+)?[ ]?([bB]|[kKmMgGtT][iI]?[bB])?$';

const SIZE = new RegExp(SIZE_PATTERN);

/** The bytes `text` names, or undefined when it is not a size. */
export function parseSize(text: string): number | undefined {
  if (!SIZE.test(text)) return undefined;
  const value = bytes.parse(text);
  return value === null || !Number.isSafeInteger(value) ? undefined : value;
}

/** `bytes` as people read it, in IEC units: "3.1 GiB". */
export const formatSize = (value: number): string => bytes.format(value, { mode: 'binary', decimalPlaces: 1, unitSeparator: ' ' })!;
