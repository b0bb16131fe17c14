// The check-layout reading a page answers (src/page/authored.ts), untrusted as everything from a
// page: checked for its shape, for indexes inside the walk it came with, for elements in document
// order with no element twice, for attributes and values check-layout-th.js knows, and each element
// carrying exactly the values its attributes need. Anything else is `page_tampered`.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AUTHORED_ATTRIBUTES, type AuthoredReading, AuthoredReadingSchema } from './authored-schema.js';
import { OracleError } from './errors.js';

const checkReading = TypeCompiler.Compile(AuthoredReadingSchema);

const tampered = (what: string) => new OracleError('page_tampered', `the page's check-layout reading ${what}; its page was replaced`);

/** `value`, read in a page whose walk has `nodes` elements, checked through and through. */
export function decodeAuthored(value: unknown, nodes: number): AuthoredReading {
  if (!checkReading.Check(value)) throw tampered('does not have its shape');
  let last = -1;
  for (const element of value.elements) {
    if (element.index <= last || element.index >= nodes) throw tampered(`names element ${element.index} out of order or past the walk`);
    last = element.index;
    if (element.offset_parent >= nodes || element.offset_parent === element.index)
      throw tampered(`gives element ${element.index} the offset parent ${element.offset_parent}`);
    const needed = new Set<string>();
    const names = Object.keys(element.attrs);
    if (names.length === 0) throw tampered(`holds element ${element.index} without an attribute`);
    for (const name of names) {
      if (!Object.hasOwn(AUTHORED_ATTRIBUTES, name) || element.attrs[name] === '')
        throw tampered(`holds an attribute check-layout-th.js does not check`);
      for (const v of AUTHORED_ATTRIBUTES[name as keyof typeof AUTHORED_ATTRIBUTES]) needed.add(v);
    }
    const given = Object.keys(element.values);
    if (given.length !== needed.size || !given.every((v) => needed.has(v)))
      throw tampered(`gives element ${element.index} other values than its attributes need`);
  }
  for (const key of value.unknown_keys) {
    if (key.index >= nodes || !key.name.startsWith('data-') || key.name.startsWith('data-test'))
      throw tampered('names an unknown key that is not one');
  }
  return value;
}
