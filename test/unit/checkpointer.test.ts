// The checkpoint thread on a real journal: with the recording connection's own checkpoints off,
// committed pages still reach the database file; stop() ends the thread; a thread that cannot
// open the journal hands checkpoints back, once.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checkpointer } from '../../src/campaign/journal/checkpointer.js';
import { Journal, type CaseRecord } from '../../src/campaign/journal/journal.js';

const root = mkdtempSync(join(tmpdir(), 'checkpointer-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

const record = (n: number): CaseRecord => ({
  id: `c${n}`,
  hash: String(n),
  op: 'geometry',
  request: '{}',
  invalid: null,
  outcomes: [{ engine: 'chromium', version: '1', result: JSON.stringify({ pad: 'x'.repeat(20_000) }), error: null, ms: null }],
  verdict: 'unanimous',
  outlier: null,
  signature: null,
  expected: null,
  vote: '{}',
  startedAt: 0,
  elapsedMs: 1,
  attempts: 1,
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test('committed pages reach the database file from the checkpoint thread, not from the recording connection', async () => {
  const path = join(root, 'j.sqlite');
  const journal = Journal.open(path);
  journal.startRun({ command: [], engines: [], versions: {}, fonts: null });
  journal.autoCheckpoint(false);
  const before = statSync(path).size;
  // 400 × 20 KB: far beyond SQLite's own 1000-page threshold, which is off on this connection.
  for (let n = 0; n < 400; n++) journal.record(record(n));
  assert.equal(statSync(path).size, before, 'everything is still in the WAL');
  let handedBack = 0;
  const checkpointer = new Checkpointer(path, () => handedBack++, 10);
  while (statSync(path).size < before + 400 * 20_000) await tick();
  await checkpointer.stop();
  assert.equal(handedBack, 0);
  assert.equal(journal.summary().cases, 400);
  journal.close();
});

test('a thread that cannot open the journal hands checkpoints back to the recording thread, once', async () => {
  let handedBack = 0;
  const checkpointer = new Checkpointer(join(root, 'missing.sqlite'), () => handedBack++, 10);
  while (handedBack === 0) await tick();
  await checkpointer.stop();
  assert.equal(handedBack, 1);
});
