// `probe` on the three real engines, through the real command line: one line per probe, each with
// its vote and per-engine errors, under the profile asked for; an emulated probe says which engines
// did not apply its emulation, and one that needs the devices profile is not run without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PROBES } from '../../src/tools/probe/probes.js';
import { ORACLE_BIN, ORACLE_ENV } from '../support/oracle-process.js';

// One page per engine (ONE_PAGE says why): the probes are a few small cases.
const probe = (...args: string[]) => promisify(execFile)(ORACLE_BIN, ['probe', '--pages=1', ...args], { env: ORACLE_ENV });

test('probe prints one JSON line per probe, with its verdict, outlier and per-engine errors', async () => {
  const { stdout } = await probe();
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(lines.length, PROBES.length);
  assert.deepEqual(
    lines.map((l) => l.probe),
    PROBES.map((p) => p.name),
  );
  for (const line of lines) {
    assert.ok(['unanimous', 'outlier', 'split', 'insufficient'].includes(line.verdict as string), JSON.stringify(line));
    assert.ok('outlier' in line && 'errors' in line);
    assert.deepEqual(line.errors, {}, JSON.stringify(line));
    assert.equal(line.profile, 'default');
  }
  assert.match(String(lines[5]!.note), /needs --profile=media/);
  for (const [i, p] of PROBES.entries()) {
    const line = lines[i]!;
    if (!p.emulate) assert.equal(line.unemulated, undefined, p.name);
    else if (p.needs === 'devices') assert.match(String(line.note), /^needs --profile=devices; not run under default$/, p.name);
    // WebKitGTK applies no emulation at all.
    else assert.ok((line.unemulated as string[]).includes('webkit'), JSON.stringify(line));
    if (p.emulate) assert.equal(line.verdict, 'insufficient', p.name);
  }
});

test("probe --profile=media runs the probes under media (the option is the probe's, not the oracle's)", async () => {
  const { stdout } = await probe('--profile=media');
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(
    lines.map((l) => l.profile),
    PROBES.map(() => 'media'),
  );
  assert.equal(lines[5]!.note, undefined, 'the fake camera is available');
});
