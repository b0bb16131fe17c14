// The in-page half of a reflect case. Like the geometry walk (page-walk.ts) it is shipped to the
// page as source text, so it must not refer to anything outside its own body. It canonicalizes
// in the page because no driver carries NaN, the infinities or -0 through JSON intact.
import type { IdlValue, Probe } from '../protocol/reflect-schema.js';

/** Per probe, [attr_value, idl_value]; or the first selector that did not resolve. */
export type RawReflection = { values: [string | null, IdlValue][] } | { unresolved: string; invalid: boolean };

function reflectInPage(script: string | null, probes: readonly Required<Probe>[]): RawReflection {
  if (script !== null) {
    // Called by another name, eval is indirect: global scope, like a classic <script>, without adding an element.
    const globalEval = eval;
    globalEval(script);
  }
  // The scalar cases match the trace recorder's canonicalization (trace-recorder.ts); both are
  // self-contained page sources, so the few lines are repeated rather than spliced together.
  const canonical = (value: unknown): IdlValue => {
    switch (typeof value) {
      case 'undefined':
        return { $undefined: true };
      case 'boolean':
      case 'string':
        return value;
      case 'number':
        if (Object.is(value, -0)) return { $num: '-0' };
        return Number.isFinite(value) ? value : { $num: String(value) as 'NaN' | 'Infinity' | '-Infinity' };
      default:
        // Objects (classList, style, form ...), functions, and whatever a script stored: their class.
        return value === null ? null : { $object: Object.prototype.toString.call(value).slice(8, -1) };
    }
  };
  const values: [string | null, IdlValue][] = [];
  for (const { selector, attr, idl } of probes) {
    let element: Element | null;
    try {
      element = document.querySelector(selector);
    } catch {
      return { unresolved: selector, invalid: true };
    }
    if (element === null) return { unresolved: selector, invalid: false };
    let idlValue: IdlValue;
    try {
      idlValue = canonical((element as unknown as Record<string, unknown>)[idl]);
    } catch (error) {
      idlValue = { $error: true, name: error instanceof Error ? error.name : typeof error };
    }
    values.push([element.getAttribute(attr), idlValue]);
  }
  return { values };
}

/** An expression evaluating to the reflect function: `(script, probes) => RawReflection`. */
export const REFLECT_FUNCTION_SOURCE = `(${reflectInPage.toString()})`;
