// Every line the oracle writes on stderr has one form, `browser-oracle: <level>: …`, whatever
// wrote it (the oracle, a worker, a library); --quiet keeps only errors; stdout holds only
// protocol lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ORACLE_BIN, ORACLE_ENV, OracleProcess } from '../support/oracle-process.js';

const LINE = /^browser-oracle: (error|warn|info|debug): \S/;

function ping(...flags: string[]) {
  const run = spawnSync(ORACLE_BIN, ['--engines=chromium', ...flags], {
    env: ORACLE_ENV,
    input: '{"id":"p","op":"ping"}\n',
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr.split('\n').filter(Boolean) };
}

test('echo ping | browser-oracle --engines=chromium: one answer on stdout, every stderr line in the one format', () => {
  const run = ping();
  assert.equal(run.code, 0, run.stderr.join('\n'));
  assert.equal(JSON.parse(run.stdout).ok, true);
  assert.equal(run.stdout.split('\n').filter(Boolean).length, 1);
  assert.ok(
    run.stderr.some((line) => line.startsWith('browser-oracle: info: ready: chromium ')),
    run.stderr.join('\n'),
  );
  for (const line of run.stderr) assert.match(line, LINE);
});

test('--log-level=debug keeps the format; --quiet leaves only errors (here: none)', () => {
  const debug = ping('--log-level=debug');
  assert.equal(debug.code, 0);
  for (const line of debug.stderr) assert.match(line, LINE);
  const quiet = ping('--quiet');
  assert.equal(quiet.code, 0);
  assert.deepEqual(quiet.stderr, []);
  assert.equal(JSON.parse(quiet.stdout).ok, true);
});

test('start-up errors are one line in the same format, without a stack', () => {
  for (const flags of [['--chromium=/nonexistent/chrome'], ['--workers=0'], ['--no-such-flag'], ['--config=/nonexistent.json']]) {
    const run = ping(...flags);
    assert.equal(run.code, 1, flags.join(' '));
    assert.equal(run.stdout, '');
    assert.equal(run.stderr.length, 1, run.stderr.join('\n'));
    assert.match(run.stderr[0]!, /^browser-oracle: error: \S/);
  }
});

test('quiet launches: 50 script-free cases that request nothing leave no refusal on stderr, even at debug, but for one known Chromium component check', async () => {
  const oracle = new OracleProcess(['--workers=1', '--log-level=debug']);
  try {
    await oracle.ready();
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        oracle.request({ id: `q${i}`, html: `<div style="width:${i}px;height:3px"></div><p>text ${i}</p>` }),
      ),
    );
  } finally {
    await oracle.shutdown();
  }
  const refusals = oracle.stderr.split('\n').filter((line) => line.includes('refused'));
  // Chromium 156 asks on demand for its Optimization Guide on-device models manifest (component
  // ceofaddefefcbblgcgnibnonglccbfja), which --disable-component-update does not stop: refused, at debug only.
  const known =
    /refused a request that names no page: (CONNECT update\.googleapis\.com:443|POST http:\/\/update\.googleapis\.com\/service\/update2\/json\?)/;
  assert.deepEqual(
    refusals.filter((line) => !known.test(line)),
    [],
  );
  assert.ok(
    refusals.every((line) => line.startsWith('browser-oracle: debug: ')),
    'nothing above debug',
  );
});
