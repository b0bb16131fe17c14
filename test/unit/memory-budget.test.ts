// The memory budget as a setting (a size from the flag, the config file or the library) and as a
// rule (when an engine's processes are over it, and which one is killed). No browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { defaultOptions } from '../../src/api/oracle.js';
import { addEngineOptions, launchOptionsOf } from '../../src/cli/engine-options.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { engineMemoryBytes, MIN_ENGINE_MEMORY } from '../../src/protocol/launch-options.js';
import { formatSize, parseSize } from '../../src/protocol/sizes.js';
import { checkLaunchOptions } from '../../src/protocol/validate.js';
import { overrun } from '../../src/system/memory/budget.js';
import type { ProcessMemory } from '../../src/system/memory/process-memory.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

test('sizes: IEC units are powers of 1024, SI units of 1000, a plain number is bytes; anything else is not a size', () => {
  const sizes: [string, number][] = [
    ['2GiB', 2 * GiB],
    ['2 GiB', 2 * GiB],
    ['2gib', 2 * GiB],
    ['1.5GiB', 1.5 * GiB],
    ['1536MiB', 1.5 * GiB],
    ['512KiB', 512 * 1024],
    ['3GB', 3e9],
    ['300mb', 3e8],
    ['1TiB', 1024 * GiB],
    ['3000000000', 3e9],
    ['64B', 64],
  ];
  for (const [text, bytes] of sizes) assert.equal(parseSize(text), bytes, text);
  for (const text of ['', '2G', 'GiB', '-1GiB', '2 GiB ', ' 2GiB', '1e9', '2PiB x', 'two GiB', '0x10', '2 gigabytes'])
    assert.equal(parseSize(text), undefined, JSON.stringify(text));
  assert.equal(formatSize(2 * GiB), '2 GiB');
  assert.equal(formatSize(3.14 * GiB), '3.1 GiB');
  assert.equal(formatSize(768 * MiB), '768 MiB');
});

test('the budget: bytes or a size, never below the least, and a one-line ConfigError naming the source otherwise', () => {
  assert.equal(engineMemoryBytes('2GiB', 'x'), 2 * GiB);
  assert.equal(engineMemoryBytes(3 * GiB, 'x'), 3 * GiB);
  assert.equal(engineMemoryBytes(MIN_ENGINE_MEMORY, 'x'), MIN_ENGINE_MEMORY);
  const bad: [number | string, RegExp][] = [
    ['100MiB', /^maxEngineMemory: 100 MiB is below the least, 512 MiB$/],
    [400 * MiB, /^maxEngineMemory: 400 MiB is below the least, 512 MiB$/],
    ['lots', /^maxEngineMemory: "lots" is not a size \(such as 2GiB\)$/],
    [1.5, /^maxEngineMemory: 1\.5 is not a size/],
  ];
  for (const [value, message] of bad)
    assert.throws(
      () => engineMemoryBytes(value, 'maxEngineMemory'),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
      String(value),
    );
});

test('the budget in a config file or the library is a size or a number; the default is 2 GiB', () => {
  assert.equal(defaultOptions().maxEngineMemory, 2 * GiB);
  assert.deepEqual(checkLaunchOptions({ maxEngineMemory: '3GiB' }, 'f.json'), { maxEngineMemory: '3GiB' });
  assert.deepEqual(checkLaunchOptions({ maxEngineMemory: 3 * GiB }, 'f.json'), { maxEngineMemory: 3 * GiB });
  assert.throws(() => checkLaunchOptions({ maxEngineMemory: 'a lot' }, 'f.json'), /^ConfigError: f\.json: field "maxEngineMemory": /);
  assert.throws(() => checkLaunchOptions({ maxEngineMemory: true }, 'f.json'), /^ConfigError: f\.json: field "maxEngineMemory": /);
});

test('--max-engine-memory takes a size, and refuses one it cannot use as a usage error', () => {
  const parse = (args: string[]) => {
    const defaults = defaultOptions();
    const command = addEngineOptions(new Command().exitOverride().configureOutput({ writeErr: () => {} }), defaults).action(() => {});
    command.parse(args, { from: 'user' });
    return launchOptionsOf(command, defaults).maxEngineMemory;
  };
  assert.equal(parse([]), 2 * GiB);
  assert.equal(parse(['--max-engine-memory=1536MiB']), 1.5 * GiB);
  assert.equal(parse(['--max-engine-memory', '4000000000']), 4e9);
  assert.throws(() => parse(['--max-engine-memory=64MiB']), /--max-engine-memory: 64 MiB is below the least, 512 MiB/);
  assert.throws(() => parse(['--max-engine-memory=big']), /--max-engine-memory: "big" is not a size/);
});

const proc = (pid: number, own: number, rss = own + 80 * MiB): ProcessMemory => ({ pid, group: 1, name: `p${pid}`, rss, own });

test('the rule: under the budget nothing is killed; over it, the process holding the most of its own', () => {
  assert.equal(overrun([], GiB), undefined);
  assert.equal(overrun([proc(1, 300 * MiB), proc(2, 300 * MiB), proc(3, 300 * MiB)], GiB), undefined);
  // Together over the budget, though none alone: the biggest goes, and the engine's total is what it used.
  assert.deepEqual(overrun([proc(1, 300 * MiB), proc(2, 500 * MiB), proc(3, 300 * MiB)], GiB), {
    victim: proc(2, 500 * MiB),
    used: 1100 * MiB,
  });
  // The pages of shared code are not the engine's own: ten processes mapping the same 150 MiB are not 1.5 GiB.
  const mapped = Array.from({ length: 10 }, (_, i) => proc(i + 1, 40 * MiB, 190 * MiB));
  assert.equal(overrun(mapped, GiB), undefined);
});

test('the rule: one process resident over the budget by itself goes first, whatever the total', () => {
  const big = proc(7, 900 * MiB, 1100 * MiB);
  assert.deepEqual(overrun([proc(1, 50 * MiB), big], GiB), { victim: big, used: 1100 * MiB });
  // Exactly at the budget is within it.
  assert.equal(overrun([proc(1, 512 * MiB, GiB), proc(2, 512 * MiB, 600 * MiB)], GiB), undefined);
});
