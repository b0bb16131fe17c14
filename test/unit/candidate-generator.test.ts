// The generator kept inside what a reference candidate declares (its ping's `supports`): the cases
// it draws for a candidate are cases that candidate lays out, not refuses. No browser: each case
// goes through the adapter in this process, as `browser-oracle candidate NAME` would answer it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateCases } from '../../src/campaign/generator/generator.js';
import { layOutCase } from '../../src/candidate-reference/engine.js';
import { referenceEngine } from '../../src/candidate-reference/serve.js';
import type { FontMode } from '../../src/candidate-reference/web/text.js';

const COUNT = 500;

for (const name of ['taffy', 'yoga'] as const) {
  for (const [fonts, text] of [
    ['liberation', false],
    ['square', false],
    ['square', true],
  ] as [FontMode, boolean][]) {
    test(`${name}, ${fonts} fonts${text ? ', with text' : ''}: at least 80 % of ${COUNT} cases generated for it are laid out`, async () => {
      const engine = await referenceEngine(name);
      const refused = new Map<string, number>();
      for (const c of generateCases({ count: COUNT, seed: 3, text, script: false, relayout: false, supports: engine.supports(fonts) })) {
        const answer = layOutCase(engine, { id: c.id, html: c.html }, fonts);
        assert.ok(!('error' in answer), `${c.id}: ${'error' in answer ? answer.error : ''}`);
        if ('unsupported' in answer) refused.set(answer.unsupported, (refused.get(answer.unsupported) ?? 0) + 1);
      }
      const unsupported = [...refused.values()].reduce((n, k) => n + k, 0);
      assert.ok(unsupported <= COUNT * 0.2, `${unsupported} of ${COUNT} unsupported: ${JSON.stringify([...refused].slice(0, 5))}`);
    });
  }
}
