// `compare` and `vote` as a user runs them: the real executable in a child process (these
// commands start no engine). Single-dump files are cut out of the recorded responses into a
// temporary directory.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { visible } from '../../src/system/visible-text.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '../../src/cli/program.js';
import type { EngineName } from '../../src/protocol/schema.js';
import { dump, fixturePath, type FixtureName } from '../fixtures/dumps/load.js';
import { reflectFixturePath } from '../fixtures/reflect/load.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'comparator-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
function dumpFile(name: FixtureName, engine: EngineName, change?: (d: ReturnType<typeof dump>) => void): string {
  const d = dump(name, engine);
  change?.(d);
  const file = join(dir, `${name}-${engine}-${change ? 'changed' : 'recorded'}.json`);
  writeFileSync(file, JSON.stringify(d));
  return file;
}
function textFile(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

test('compare: one JSON object on stdout, exit 0 on pass and 1 on fail', () => {
  const pass = cli('compare', dumpFile('agree', 'chromium'), dumpFile('agree', 'webkit'));
  assert.equal(pass.code, 0, pass.stderr);
  const passed = JSON.parse(pass.stdout);
  assert.deepEqual([passed.a, passed.b, passed.verdict], ['chromium', 'webkit', 'pass']);
  assert.equal(pass.stdout.trim().split('\n').length, 1);

  const fail = cli('compare', dumpFile('text-line', 'chromium'), dumpFile('text-line', 'firefox'));
  assert.equal(fail.code, 1);
  assert.equal(JSON.parse(fail.stdout).failures.length, 6);
});

test('compare --pretty: a human summary naming the failing nodes', () => {
  const run = cli('compare', '--pretty', dumpFile('rigid-base', 'webkit'), dumpFile('rigid-moved', 'webkit'));
  assert.equal(run.code, 1);
  assert.match(run.stdout, /^webkit \(.*\) → webkit \(.*\): fail\n/);
  assert.match(run.stdout, /node 5 DIV: offset Δx \+13 Δy \+7/);
});

test('vote: exit 0 only when unanimous', () => {
  const agree = cli('vote', fixturePath('agree'));
  assert.equal(agree.code, 0, agree.stderr);
  assert.equal(JSON.parse(agree.stdout).verdict, 'unanimous');
  const outlier = cli('vote', fixturePath('text-line'));
  assert.equal(outlier.code, 1);
  assert.equal(JSON.parse(outlier.stdout).outlier, 'firefox');
  const insufficient = cli('vote', '--pretty', fixturePath('engine-error'));
  assert.equal(insufficient.code, 1);
  assert.match(insufficient.stdout, /^vote: insufficient\n.*firefox error \(script_error: Error: recorded failure\)/);
});

test('vote: a reflect response (it has "states") is voted per observation', () => {
  const unanimous = cli('vote', reflectFixturePath('unanimous'));
  assert.equal(unanimous.code, 0, unanimous.stderr);
  assert.equal(JSON.parse(unanimous.stdout).observations.length, 5);
  const outlier = cli('vote', '--pretty', reflectFixturePath('outlier'));
  assert.equal(outlier.code, 1);
  assert.match(outlier.stdout, /^vote: outlier \(chromium\)\n/);
  assert.match(
    outlier.stdout,
    /\n {2}0 #a preload: outlier \(chromium\); chromium "bogus" → "metadata", firefox "bogus" → "auto", webkit "bogus" → "auto"\n {2}1 #b preload: unanimous\n/,
  );
  const bad = cli('vote', textFile('bad-reflect.json', '{"id":"x","states":{"chromium":{}}}'));
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /is not an oracle reflect response: \/states\/chromium/);
});

test('compare --candidate: judged against the majority, under any engine name', () => {
  const candidate = dumpFile('text-line', 'webkit', (d) => Object.assign(d, { engine: 'my-engine' }));
  const run = cli('compare', '--candidate', candidate, fixturePath('text-line'));
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.deepEqual([result.candidate, result.verdict, result.majority], ['my-engine', 'pass', ['chromium', 'webkit']]);
  assert.equal(cli('compare', '--candidate', dumpFile('text-line', 'firefox'), fixturePath('text-line')).code, 1);
});

test("--pretty shows a candidate's name (and any text of a dump) without acting on it: no forged line, no escape sequence", () => {
  const name = 'my-engine\u001b[2J\ncandidate forged against the majority: pass\u202e';
  const candidate = dumpFile('text-line', 'firefox', (d) => Object.assign(d, { engine: name }));
  const run = cli('compare', '--pretty', '--candidate', candidate, fixturePath('text-line'));
  assert.equal(run.code, 1, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  for (const line of lines) assert.equal(visible(line), line);
  assert.ok(!lines.some((l) => l.startsWith('candidate forged')), run.stdout);
  assert.match(lines[0]!, /^candidate my-engine\\x1b\[2J\\ncandidate forged against the majority: pass\\u202e against the majority/);
});

test('unusable input: exit 2, one line on stderr, no stack trace, nothing on stdout', () => {
  const good = dumpFile('agree', 'chromium');
  const cases: [string, string[], RegExp][] = [
    ['a missing file', ['compare', join(dir, 'missing.json'), good], /cannot read .*missing\.json: no such file or directory/],
    ['not JSON', ['compare', textFile('garbage.json', '{"engine": '), good], /garbage\.json is not JSON/],
    ['a response where a dump belongs', ['compare', fixturePath('agree'), good], /agree\.json is not a dump: \/engine: /],
    ['a dump where a response belongs', ['vote', good], /is not an oracle geometry response: \/id: /],
    [
      'a tree that contradicts itself',
      ['compare', dumpFile('agree', 'firefox', (d) => (d.nodes[3]!.parent = 6)), good],
      /is not a dump: node 3: parent 6 does not precede it/,
    ],
    [
      'a candidate named like nothing',
      ['compare', '--candidate', dumpFile('agree', 'webkit', (d) => Object.assign(d, { engine: '' })), fixturePath('agree')],
      /is not a candidate dump: \/engine: /,
    ],
    ['one dump without --candidate', ['compare', good], /give two dump files/],
    ['two files with --candidate', ['compare', '--candidate', good, fixturePath('agree'), good], /exactly one oracle response file/],
    ['no file at all', ['vote'], /missing required argument 'response'/],
  ];
  for (const [what, args, message] of cases) {
    const run = cli(...args);
    assert.equal(run.code, 2, what);
    assert.equal(run.stdout, '', what);
    assert.match(run.stderr, message, what);
    assert.equal(run.stderr.trimEnd().split('\n').length, 1, `${what}: ${run.stderr}`);
    assert.doesNotMatch(run.stderr, /\n\s+at /, what);
  }
});

test('--help documents usage and exit status; the root keeps its own options beside the commands', () => {
  const help = cli('compare', '--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--candidate CANDIDATE\.json RESPONSE\.json/);
  assert.match(help.stdout, /Exit status: 0 pass \(for a batch: every line\), 1 any other verdict, 2 unusable input/);
  assert.match(cli('vote', '--help').stdout, /Exit status: 0 unanimous/);
  const root = buildProgram();
  assert.match(root.helpInformation(), /--workers <n>/);
  assert.deepEqual(
    root.commands.map((c) => c.name()).filter((n) => n === 'compare' || n === 'vote'),
    ['compare', 'vote'],
  );
});
