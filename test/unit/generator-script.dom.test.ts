// Generated scripts run against their own documents without an error: no line names an
// element that is gone or moves an element into itself. Run in jsdom, which keeps the DOM's
// rules (it throws where a browser would) but does no layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { generateCases } from '../../src/campaign/generator/generator.js';

const cases = [...generateCases({ count: 80, seed: 4242, script: true, text: true, minElements: 1, maxElements: 12 })];

test('every script runs to the end in its document, and leaves ids unique and the root in place', () => {
  for (const generated of cases) {
    const dom = new JSDOM(generated.html, { runScripts: 'outside-only' });
    assert.doesNotThrow(() => dom.window.eval(generated.script!), `${generated.id}:\n${generated.script}`);
    const document = dom.window.document;
    const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
    assert.equal(new Set(ids).size, ids.length, `${generated.id}: repeated id`);
    assert.equal(document.body.firstElementChild?.id, 'root');
    dom.window.close();
  }
});

test('a script lays the document out first, then makes one change a line', () => {
  const kinds = new Set<string>();
  for (const { script } of cases) {
    const lines = script!.split('\n');
    assert.equal(lines[0], 'document.body.offsetWidth;');
    for (const line of lines.slice(1)) {
      const kind =
        /^document\.body\.offsetWidth;$|^document\.getElementById\("[a-z0-9]+"\)\.(insertAdjacentHTML|remove|append|prepend|style\.setProperty|style\.removeProperty)\(/.exec(
          line,
        );
      assert.ok(kind, line);
      kinds.add(kind[1] ?? 'layout');
    }
  }
  assert.deepEqual([...kinds].sort(), [
    'append',
    'insertAdjacentHTML',
    'layout',
    'prepend',
    'remove',
    'style.removeProperty',
    'style.setProperty',
  ]);
});
