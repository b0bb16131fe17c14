// The steps the tools share (src/tools/engine-session.ts): an engine that did not launch ends the
// session before the tool's work, in one line; the farm is closed however the work ends; SIGINT
// and SIGTERM are the tool's only while its session lasts. No browser: the one engine asked for
// is /bin/false, which exits at once, so the farm starts with that engine missing.
import assert from 'node:assert/strict';
import test from 'node:test';
import { defaultOptions } from '../../src/api/oracle.js';
import { OracleService, type OracleOptions } from '../../src/coordinator/oracle-service.js';
import { handlingSignals, withEngines } from '../../src/tools/engine-session.js';

const options: OracleOptions = {
  ...defaultOptions(),
  engines: ['chromium'],
  allowMissingEngines: true,
  paths: { chromium: '/bin/false' },
  workers: 1,
  pages: 1,
};

/** Runs `body` counting the farms started and closed, and keeping what went to stderr. */
async function watched<T>(body: () => Promise<T>): Promise<{ value: T; started: number; closed: number; stderr: string }> {
  const start = OracleService.start;
  const write = process.stderr.write.bind(process.stderr);
  let started = 0;
  let closed = 0;
  let stderr = '';
  OracleService.start = async (o) => {
    const oracle = await start.call(OracleService, o);
    started++;
    const close = oracle.close.bind(oracle);
    oracle.close = async () => {
      closed++;
      await close();
    };
    return oracle;
  };
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    stderr += String(chunk);
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    return { value: await body(), started, closed, stderr };
  } finally {
    OracleService.start = start;
    process.stderr.write = write;
  }
}

test('an engine that did not launch ends the session with status 1 before the work, in one line, and the farm is closed', async () => {
  let worked = false;
  const run = await watched(() =>
    withEngines({ tool: 'sometool', options, notDone: 'nothing was run' }, async () => {
      worked = true;
      return 0;
    }),
  );
  assert.equal(run.value, 1);
  assert.equal(worked, false);
  assert.deepEqual([run.started, run.closed], [1, 1]);
  assert.match(run.stderr, /^browser-oracle: error: sometool: chromium did not launch \(the reason is above\); nothing was run$/m);
});

test('work that throws still closes the farm, and the error reaches the caller', async () => {
  const run = await watched(() =>
    assert.rejects(
      withEngines({ tool: 'sometool', options: { ...options, engines: [] }, notDone: 'nothing was run' }, async () => {
        throw new Error('the work failed');
      }),
      /the work failed/,
    ),
  );
  assert.deepEqual([run.started, run.closed], [1, 1]);
});

test('SIGINT and SIGTERM go to the tool while its session lasts, and to no one of ours after', async () => {
  const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
  const seen: string[] = [];
  await handlingSignals(
    (signal) => seen.push(signal),
    async () => {
      process.emit('SIGINT', 'SIGINT');
      process.emit('SIGTERM', 'SIGTERM');
    },
  );
  assert.deepEqual(seen, ['SIGINT', 'SIGTERM']);
  assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before);
  await assert.rejects(
    handlingSignals(
      () => {},
      async () => {
        throw new Error('stopped');
      },
    ),
  );
  assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before);
});
