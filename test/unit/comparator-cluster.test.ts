// The generic clustering on its own, with agreement given as explicit pairs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cluster } from '../../src/comparator/cluster.js';

/** An agree predicate from the pairs that agree, e.g. 'a~b'. */
const pairs =
  (...agreeing: string[]) =>
  (x: string, y: string) =>
    agreeing.includes(`${x}~${y}`) || agreeing.includes(`${y}~${x}`);

test('all pairs agree: unanimous, everyone in the majority', () => {
  assert.deepEqual(cluster(['a', 'b', 'c'], pairs('a~b', 'b~c', 'a~c')), {
    verdict: 'unanimous',
    outlier: null,
    majority: ['a', 'b', 'c'],
  });
});

test('two agree and the third agrees with neither: the third is the outlier', () => {
  assert.deepEqual(cluster(['a', 'b', 'c'], pairs('a~c')), { verdict: 'outlier', outlier: 'b', majority: ['a', 'c'] });
});

test('no two agree: split', () => {
  assert.deepEqual(cluster(['a', 'b', 'c'], pairs()), { verdict: 'split', outlier: null, majority: [] });
});

test('non-transitive agreement (a≈b, b≈c, a≉c) is a split: no majority is trusted', () => {
  assert.deepEqual(cluster(['a', 'b', 'c'], pairs('a~b', 'b~c')), { verdict: 'split', outlier: null, majority: [] });
});

test('fewer than three items are insufficient, even when they agree', () => {
  assert.equal(cluster(['a', 'b'], pairs('a~b')).verdict, 'insufficient');
  assert.equal(cluster(['a'], pairs()).verdict, 'insufficient');
  assert.equal(cluster([], pairs()).verdict, 'insufficient');
});

test('more than three items: one odd item is an outlier, two camps are a split', () => {
  assert.deepEqual(cluster(['a', 'b', 'c', 'd'], pairs('a~b', 'a~d', 'b~d')), {
    verdict: 'outlier',
    outlier: 'c',
    majority: ['a', 'b', 'd'],
  });
  assert.equal(cluster(['a', 'b', 'c', 'd'], pairs('a~b', 'c~d')).verdict, 'split');
});

test('agree is asked once per unordered pair, and the key order does not matter', () => {
  const asked: string[] = [];
  const agree = (x: string, y: string) => {
    asked.push([x, y].sort().join('~'));
    return pairs('a~c')(x, y);
  };
  const forward = cluster(['a', 'b', 'c'], agree);
  assert.deepEqual(asked.sort(), ['a~b', 'a~c', 'b~c']);
  assert.deepEqual(cluster(['c', 'b', 'a'], agree), forward);
  assert.deepEqual(cluster(['b', 'c', 'a'], agree), forward);
});
