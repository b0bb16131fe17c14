// A mutation case's mutations name elements by document order and an insert counts its parent's
// element children: a reduction that takes elements out renumbers them (src/reduce/renumber.ts),
// so that a reduced case still means what the original did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reduce } from '../../src/reduce/index.js';
import { dropMutations, renumberMutations } from '../../src/reduce/renumber.js';
import type { Mutation } from '../../src/protocol/mutations-schema.js';
import { attr, dom, elements } from './support/dom.js';

// html 0, head 1, body 2, #a 3, #b 4, #c 5, #d 6; the insert's element is 7.
const BEFORE = '<!doctype html><div id="a"><p id="b"></p><p id="c"></p><span id="d"></span></div>';
const MUTATIONS: Mutation[] = [
  { op: 'style', node: 5, property: 'width', value: '10px' },
  { op: 'insert', parent: 3, position: 2, html: '<b><i></i></b>' },
  { op: 'text', node: 8, value: 'x' },
  { op: 'remove', node: 6 },
];

test('names move with their elements, inserted ones after the new count, an insert before the same sibling', () => {
  assert.deepEqual(renumberMutations(BEFORE, '<!doctype html><div id="a"><p id="c"></p><span id="d"></span></div>', MUTATIONS), [
    { op: 'style', node: 4, property: 'width', value: '10px' },
    { op: 'insert', parent: 3, position: 1, html: '<b><i></i></b>' },
    { op: 'text', node: 7, value: 'x' },
    { op: 'remove', node: 5 },
  ]);
});

test('an insert whose following sibling went goes before the next one left, or last', () => {
  const mutations: Mutation[] = [{ op: 'insert', parent: 3, position: 1, html: '<b></b>' }];
  assert.deepEqual(renumberMutations(BEFORE, '<!doctype html><div id="a"><p id="b"></p><span id="d"></span></div>', mutations), [
    { op: 'insert', parent: 3, position: 1, html: '<b></b>' },
  ]);
  assert.deepEqual(renumberMutations(BEFORE, '<!doctype html><div id="a"><p id="b"></p></div>', mutations), [
    { op: 'insert', parent: 3, position: 1, html: '<b></b>' },
  ]);
  assert.deepEqual(renumberMutations(BEFORE, '<!doctype html><div id="a"></div>', mutations), [
    { op: 'insert', parent: 3, position: 0, html: '<b></b>' },
  ]);
});

test('a mutation whose element went leaves no case; a hoisted element keeps its name', () => {
  assert.equal(renumberMutations(BEFORE, '<!doctype html><div id="a"><p id="b"></p><span id="d"></span></div>', MUTATIONS), undefined);
  // #a hoisted: its children are the body's now, and #c is 3.
  assert.deepEqual(renumberMutations(BEFORE, '<!doctype html><p id="b"></p><p id="c"></p><span id="d"></span>', [MUTATIONS[0]!]), [
    { op: 'style', node: 4, property: 'width', value: '10px' },
  ]);
});

test('reduce: elements before the one a mutation names go, the mutation following it', async () => {
  const html = `<!doctype html>${'<p class="x"></p>'.repeat(6)}<div id="target" class="x"></div><p></p>`;
  const request = { id: 'm', html, mutations: [{ op: 'style', node: 9, property: 'width', value: '1px' }] };
  const result = await reduce(request, async (c) => {
    const named = elements(dom(c.html))[(c.mutations[0] as { node: number }).node];
    return named !== undefined && attr(named, 'id') === 'target';
  });
  assert.equal(elements(dom(result.request.html)).length, 4, result.request.html);
  assert.deepEqual(result.request.mutations, [{ op: 'style', node: 3, property: 'width', value: '1px' }]);
});

// #a's children after both inserts: <i> 7, #b 4, <u> 8, #c 5, #d 6.
const INSERTS: Mutation[] = [
  { op: 'insert', parent: 3, position: 0, html: '<i></i>' },
  { op: 'insert', parent: 3, position: 2, html: '<u></u>' },
  { op: 'style', node: 8, property: 'width', value: '1px' },
];

test('a dropped insert takes its elements with it: those inserted later move down, and keep their siblings', () => {
  assert.deepEqual(dropMutations(BEFORE, INSERTS, new Set([0])), [
    { op: 'insert', parent: 3, position: 1, html: '<u></u>' },
    { op: 'style', node: 7, property: 'width', value: '1px' },
  ]);
  assert.deepEqual(dropMutations(BEFORE, INSERTS, new Set([2])), INSERTS.slice(0, 2), 'nothing dropped before them: as they were');
  assert.equal(dropMutations(BEFORE, INSERTS, new Set([1])), undefined, 'the style names the element the dropped insert made');
  // #b removed first: <u> goes last (after #d), and is element 7.
  const removed: Mutation[] = [
    { op: 'remove', node: 4 },
    { op: 'insert', parent: 3, position: 2, html: '<u></u>' },
    { op: 'style', node: 7, property: 'width', value: '1px' },
  ];
  assert.deepEqual(
    dropMutations(BEFORE, removed, new Set([0])),
    [
      { op: 'insert', parent: 3, position: 3, html: '<u></u>' },
      { op: 'style', node: 7, property: 'width', value: '1px' },
    ],
    'a dropped remove leaves its element among the siblings',
  );
});

test('reduce: an insert the signature does not need goes, and the mutations after it follow their elements', async () => {
  const html = '<!doctype html><div id="a"><p id="b"></p><p id="c"></p><span id="d"></span></div>';
  const result = await reduce({ id: 'm', html, mutations: INSERTS }, async (c) => {
    const list = c.mutations as Mutation[];
    const made = new Map<number, string>();
    let next = elements(dom(c.html)).length;
    for (const m of list) if (m.op === 'insert') made.set(next++, m.html);
    return list.some((m) => m.op === 'style' && made.get(m.node) === '<u></u>');
  });
  assert.deepEqual(result.request.mutations, [
    { op: 'insert', parent: 3, position: 0, html: '<u></u>' },
    { op: 'style', node: 4, property: 'width', value: '1px' },
  ]);
});

test('reduce: a trial that differs only in its mutations is run, not answered by the case it came from', async () => {
  const html = '<!doctype html><div id="a"><p id="b"></p><p id="c"></p><span id="d"></span></div>';
  const seen: number[] = [];
  const result = await reduce({ id: 'm', html, mutations: INSERTS }, async (c) => {
    seen.push(c.mutations.length);
    return c.mutations.length === INSERTS.length;
  });
  assert.equal(result.request.mutations?.length, INSERTS.length, 'every shorter list fails the predicate');
  assert.ok(
    seen.some((n) => n < INSERTS.length),
    `the shorter lists were tried: ${seen}`,
  );
});
