// The seeded generator under the case generator: reproducible, in range, and spread out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../src/campaign/generator/random.js';

const draws = (random: Random, n: number) => Array.from({ length: n }, () => random.uint32());

test('the same seed words give the same sequence; any changed word gives another', () => {
  assert.deepEqual(draws(new Random(1, 2, 3), 50), draws(new Random(1, 2, 3), 50));
  for (const other of [
    [1, 2, 4],
    [1, 3, 3],
    [0, 2, 3],
    [1, 2],
    [3, 2, 1],
  ]) {
    assert.notDeepEqual(draws(new Random(...other), 50), draws(new Random(1, 2, 3), 50), other.join(','));
  }
});

test('int stays within its bounds and reaches both; chance, pick, weighted and sample behave', () => {
  const random = new Random(11);
  const seen = new Set<number>();
  for (let i = 0; i < 2000; i++) {
    const value = random.int(-3, 3);
    assert.ok(Number.isInteger(value) && value >= -3 && value <= 3, String(value));
    seen.add(value);
  }
  assert.equal(seen.size, 7);
  const heads = Array.from({ length: 4000 }, () => random.chance(0.25)).filter(Boolean).length;
  assert.ok(heads > 800 && heads < 1200, `${heads} of 4000 at p = 0.25`);
  const picks = Array.from({ length: 3000 }, () =>
    random.weighted([
      [1, 'a'],
      [2, 'b'],
      [0, 'never'],
    ] as const),
  );
  assert.ok(!picks.includes('never'));
  const bs = picks.filter((p) => p === 'b').length;
  assert.ok(bs > 1800 && bs < 2200, `${bs} of 3000 at weight 2/3`);
  const sample = random.sample([1, 2, 3, 4, 5], 3);
  assert.equal(new Set(sample).size, 3);
  assert.deepEqual(random.sample([1, 2], 5).sort(), [1, 2]);
});
