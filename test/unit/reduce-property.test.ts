// Property: for a random element tree and a random set of elements the predicate needs, the
// reducer keeps exactly those elements, each with only the attribute the predicate reads,
// in the same ancestor relations, and no text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { reduce } from '../../src/reduce/index.js';
import { attr, dom, elements, texts } from './support/dom.js';

// Tags the parser never closes or moves on its own, so the tree written is the tree parsed.
const TAGS = ['div', 'span', 'section', 'b', 'em'] as const;

interface Spec {
  parent: number;
  tag: (typeof TAGS)[number];
  text: boolean;
}

const specs = fc.array(fc.record({ parent: fc.nat(), tag: fc.constantFrom(...TAGS), text: fc.boolean() }), { minLength: 1, maxLength: 14 });

/** Markup for the tree where node i's parent is spec.parent mod (i + 1), minus one (-1: the body). */
function markup(nodes: Spec[]): string {
  const parentOf = nodes.map((n, i) => (n.parent % (i + 1)) - 1);
  const render = (i: number): string => {
    const kids = nodes.map((_, k) => k).filter((k) => parentOf[k] === i);
    const n = nodes[i]!;
    return `<${n.tag} id="e${i}" class="c${i}" title="t">${n.text ? `text ${i} here` : ''}${kids.map(render).join('')}</${n.tag}>`;
  };
  return (
    '<!DOCTYPE html>' +
    nodes
      .map((_, i) => i)
      .filter((i) => parentOf[i] === -1)
      .map(render)
      .join('')
  );
}

const STRUCTURAL = new Set(['html', 'head', 'body']);
const caseElements = (html: string) => elements(dom(html)).filter((e) => !STRUCTURAL.has(e.tagName));

/** Pairs "a>b" of ids where a is an ancestor of b, among `ids`. */
function ancestry(html: string, ids: Set<string>): string[] {
  const pairs: string[] = [];
  for (const e of caseElements(html)) {
    for (let p = e.parentNode as T.Element | null; p && 'tagName' in p; p = p.parentNode as T.Element | null) {
      const a = attr(p, 'id');
      const b = attr(e, 'id');
      if (a && b && ids.has(a) && ids.has(b)) pairs.push(`${a}>${b}`);
    }
  }
  return pairs.sort();
}

test('the reducer keeps exactly the elements the predicate needs', async () => {
  await fc.assert(
    fc.asyncProperty(specs, fc.array(fc.boolean(), { maxLength: 14 }), fc.integer({ min: 1, max: 8 }), async (nodes, picks, parallel) => {
      const html = markup(nodes);
      const keep = new Set(nodes.map((_, i) => `e${i}`).filter((_, i) => picks[i]));
      const needs = async (c: { html: string }) => {
        const present = new Set(caseElements(c.html).map((e) => attr(e, 'id')));
        return [...keep].every((id) => present.has(id));
      };
      const { request, oneMinimal } = await reduce({ html }, needs, { parallel });
      const left = caseElements(request.html);
      assert.deepEqual(left.map((e) => attr(e, 'id')).sort(), [...keep].sort());
      assert.ok(left.every((e) => e.attrs.length === 1 && e.attrs[0]!.name === 'id'));
      assert.deepEqual(texts(dom(request.html)), []);
      assert.deepEqual(ancestry(request.html, keep), ancestry(html, keep));
      assert.equal(oneMinimal, true);
    }),
    { numRuns: 60 },
  );
});
