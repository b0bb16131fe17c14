// The in-page half of a reflect case: per probe, the content attribute and the IDL property that
// reflects it. The IDL value is read from the engine's own accessor — found on the element's
// prototype chain through captured built-ins, never through the element itself, whose own
// properties a case may have set — and canonicalized here, because no driver carries NaN, the
// infinities or -0 through JSON intact. The result is JSON text of its own making.
//
// Shipped as source text (programs.ts).
import type { Builtins } from './builtins.js';
import { numberJson, quoteJson } from './json-text.js';

export interface ReflectProbe {
  selector: string;
  attr: string;
  idl: string;
}

/** An IDL value as canonical JSON text: JSON's own scalars, or one of the $-forms of the reflect protocol. */
export function canonicalIdl(b: Builtins, value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return '{"$undefined":true}';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return quoteJson(b, value);
    case 'number':
      if (value === 0 && 1 / value < 0) return '{"$num":"-0"}';
      return b.isFinite(value) ? numberJson(b, value) : `{"$num":"${b.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity'}"}`;
    default:
      // Objects (classList, style, form ...), functions, and whatever a script stored: their class.
      return value === null ? 'null' : `{"$object":${quoteJson(b, b.className(value))}}`;
  }
}

/** The engine's own value of `element[name]`: the first accessor or value on its prototype chain. */
export function readIdl(b: Builtins, element: Element, name: string): unknown {
  for (let proto = b.getPrototypeOf(element); proto !== null; proto = b.getPrototypeOf(proto)) {
    const d = b.ownDescriptor(proto, name);
    if (!d) continue;
    if (d.get) return b.uncurry(d.get as () => unknown)(element);
    return d.set ? undefined : d.value;
  }
  return undefined;
}

/**
 * `{"values": [[attr_value, idl_value], …]}`, or the first selector that does not resolve, or
 * `{"tooLarge": …}` once the values pass `maxBytes` (a case sets an attribute as long as it likes).
 */
export function readProbes(b: Builtins, probes: readonly ReflectProbe[], maxBytes: number): string {
  let values = '';
  for (let i = 0; i < probes.length; i++) {
    const { selector, attr, idl } = probes[i]!;
    let element: Element | null;
    try {
      element = b.querySelector(b.document, selector);
    } catch {
      return `{"unresolved":${quoteJson(b, selector)},"invalid":true}`;
    }
    if (element === null) return `{"unresolved":${quoteJson(b, selector)},"invalid":false}`;
    let idlValue: string;
    try {
      idlValue = canonicalIdl(b, readIdl(b, element, idl));
    } catch (error) {
      idlValue = `{"$error":true,"name":${quoteJson(b, b.errorName(error))}}`;
    }
    const attrValue = b.getAttribute(element, attr);
    values += `${i ? ',' : ''}[${attrValue === null ? 'null' : quoteJson(b, attrValue)},${idlValue}]`;
    if (values.length > maxBytes) return `{"tooLarge":{"nodes":0,"bytes":${values.length}}}`;
  }
  return `{"values":[${values}]}`;
}
