// A case's `mutations` (src/protocol/mutations-schema.ts) as the script the browsers run in place of
// a case's `script`, with the same guarantees. The oracle writes every character of it: each value
// the request holds goes in as a JSON string literal, and an inserted fragment is built element by
// element from the oracle's own parse of it (src/protocol/mutation-check.ts), never handed to a
// parser in the page. The request was checked before (mutationsProblem), so every element it names
// exists when its mutation applies.
import { parseMutationFragment, type FragmentElement } from '../protocol/mutation-check.js';
import type { Mutation } from '../protocol/mutations-schema.js';

// `<` escaped, so that no value can read as a tag wherever the script is placed.
const quote = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The script: the elements in document order are indexed first (an insert appends its own); the
 * document is laid out before the first mutation, so that each engine's next layout is an
 * incremental one of what changed.
 */
export function mutationScript(mutations: readonly Mutation[]): string {
  const lines = [
    'const n = Array.prototype.slice.call(document.getElementsByTagName("*"));',
    'document.documentElement.getBoundingClientRect();',
    ...mutations.map(mutationLine),
  ];
  return `{\n${lines.join('\n')}\n}`;
}

function mutationLine(m: Mutation): string {
  switch (m.op) {
    case 'style':
      return m.value === null
        ? `n[${m.node}].style.removeProperty(${quote(m.property)});`
        : `n[${m.node}].style.setProperty(${quote(m.property)}, ${quote(m.value)});`;
    case 'attribute':
      return m.value === null
        ? `n[${m.node}].removeAttribute(${quote(m.name)});`
        : `n[${m.node}].setAttribute(${quote(m.name)}, ${quote(m.value)});`;
    case 'remove':
      return `n[${m.node}].remove();`;
    case 'text':
      return `n[${m.node}].textContent = ${quote(m.value)};`;
    case 'insert': {
      const fragment = parseMutationFragment(m.html);
      // Checked before: a request whose fragment is not one element never gets here.
      if (typeof fragment === 'string') throw new Error(`unchecked mutation fragment: ${fragment}`);
      return `n[${m.parent}].insertBefore(${build(fragment)}, n[${m.parent}].children[${m.position}] || null);`;
    }
  }
}

/** An expression that makes `element` and its descendants, pushing each element onto `n` in document order. */
function build(element: FragmentElement): string {
  const steps = [
    `const e = document.createElement(${quote(element.tag)});`,
    'n.push(e);',
    ...element.attributes.map(([name, value]) => `e.setAttribute(${quote(name)}, ${quote(value)});`),
    ...element.children.map((c) => `e.append(${typeof c === 'string' ? quote(c) : build(c)});`),
    'return e;',
  ];
  return `(() => { ${steps.join(' ')} })()`;
}
