// The engine list is the one place that names the browsers: every per-engine shape of the
// published protocol, the vote's pair keys and the report's columns follow it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pairKey } from '../../src/comparator/three-way.js';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { EXECUTABLES } from '../../src/protocol/launch-options.js';
import { PAIR_KEYS } from '../../src/protocol/vote-schema.js';
import { STYLE } from '../../src/report/assets.js';
import { PUBLISHED_SCHEMA } from '../support/published-schema.js';

/** Every object schema in `schema` whose properties name an engine: its property names, and where it is. */
function perEngineObjects(schema: unknown, at = '#'): { at: string; keys: string[] }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const found: { at: string; keys: string[] }[] = [];
  const properties = (schema as { properties?: object }).properties;
  if (properties) {
    const keys = Object.keys(properties);
    if (keys.some((k) => k.split('~').some((name) => (ENGINE_NAMES as readonly string[]).includes(name)))) found.push({ at, keys });
  }
  for (const [key, value] of Object.entries(schema)) found.push(...perEngineObjects(value, `${at}/${key}`));
  return found;
}

test('the engine list is alphabetical, so the order of per-engine maps and of the names in a pair key is one order', () => {
  assert.deepEqual([...ENGINE_NAMES], [...new Set(ENGINE_NAMES)].sort());
});

test('the pair keys are every pair of engines, as the comparator names them, in engine order', () => {
  const pairs = ENGINE_NAMES.flatMap((a, i) => ENGINE_NAMES.slice(i + 1).map((b) => [a, b] as const));
  assert.deepEqual(
    PAIR_KEYS,
    pairs.map(([a, b]) => pairKey(a, b)),
  );
  assert.deepEqual(
    PAIR_KEYS,
    pairs.map(([a, b]) => pairKey(b, a)),
  );
  assert.equal(PAIR_KEYS.length, (ENGINE_NAMES.length * (ENGINE_NAMES.length - 1)) / 2);
});

test('every per-engine object of the published schema is keyed by exactly the engine list (or its pairs)', () => {
  const objects = perEngineObjects(JSON.parse(readFileSync(PUBLISHED_SCHEMA, 'utf8')));
  const byKind = { engines: 0, pairs: 0, executables: 0 };
  for (const { at, keys } of objects) {
    // The executables are per executable (WebKit has two), from their own table.
    if (keys.includes('webkitDriver')) {
      assert.deepEqual(keys, Object.keys(EXECUTABLES), at);
      byKind.executables++;
    } else if (keys.some((k) => k.includes('~'))) {
      assert.deepEqual(keys, PAIR_KEYS, at);
      byKind.pairs++;
    } else {
      assert.deepEqual(keys, [...ENGINE_NAMES], at);
      byKind.engines++;
    }
  }
  // Dumps, errors, statuses, versions, states, traces, images...: the walk found them.
  assert.ok(byKind.engines >= 10 && byKind.pairs >= 1 && byKind.executables >= 1, JSON.stringify(byKind));
});

test('the report shows one column per engine', () => {
  assert.match(STYLE.text, new RegExp(`\\.engines \\{[^}]*grid-template-columns: repeat\\(${ENGINE_NAMES.length}, `));
});
