// `probe` on the three real engines: six probe lines, each with its vote and per-engine errors.
// The command is registered on a bare program here, as main.ts registers it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { PROBES } from '../src/cli/probes.js';

const PROBE_COMMANDS = fileURLToPath(new URL('../src/cli/probe-commands.js', import.meta.url));
const PROGRAM = `import { Command } from 'commander'; const { registerProbeCommands } = await import(${JSON.stringify(PROBE_COMMANDS)});
const program = new Command().name('browser-oracle'); registerProbeCommands(program); await program.parseAsync();`;

const probe = (...args: string[]) =>
  promisify(execFile)(process.execPath, ['--input-type=module', '-e', PROGRAM, '--', 'probe', ...args], { cwd: fileURLToPath(new URL('../..', import.meta.url)) });

test('probe prints one JSON line per probe, with its verdict, outlier and per-engine errors', async () => {
  const { stdout } = await probe();
  const lines = stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(lines.length, 6);
  assert.deepEqual(lines.map((l) => l.probe), PROBES.map((p) => p.name));
  for (const line of lines) {
    assert.ok(['unanimous', 'outlier', 'split', 'insufficient'].includes(line.verdict as string), JSON.stringify(line));
    assert.ok('outlier' in line && 'errors' in line);
    assert.deepEqual(line.errors, {}, JSON.stringify(line));
    assert.equal(line.profile, 'default');
  }
  assert.match(String(lines[5]!.note), /needs --profile=media/);
});
