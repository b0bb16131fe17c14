// Progress on fake streams, with a fake clock and mocked timers: one status line per interval
// without a TTY, a bar redrawn in place on one, and never a byte on stdout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { CampaignProgressBar } from '../../src/campaign/loop/progress.js';

/** A stream that keeps what is written to it; `isTTY` as a terminal or a file would say. */
function fakeStream(isTTY: boolean) {
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, callback) {
        stream.text += String(chunk);
        callback();
      },
    }),
    { isTTY, columns: 200, text: '' },
  );
  return stream as typeof stream & NodeJS.WriteStream;
}

test('without a TTY: one status line at the start, one per interval, one at the end', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const stream = fakeStream(false);
  let clock = 0;
  const progress = new CampaignProgressBar({ total: 10, stream, intervalMs: 3000, now: () => clock });
  progress.skipped(2);
  clock = 2000;
  progress.recorded({ verdict: 'unanimous', expected: null });
  progress.recorded({ verdict: 'outlier', expected: 'gecko-line-height-normal-liberation' });
  progress.recorded({ verdict: null, expected: null });
  assert.equal(stream.text.split('\n').length - 1, 1, 'nothing between intervals');
  t.mock.timers.tick(3000);
  clock = 4000;
  progress.recorded({ verdict: 'split', expected: null });
  t.mock.timers.tick(3000);
  progress.stop();
  t.mock.timers.tick(30000);
  assert.deepEqual(stream.text.split('\n'), [
    'browser-oracle: info: campaign: 0/10 cases | 0.0 cases/s | ETA ? | unanimous 0 · outlier 0 · split 0 · insufficient 0 · invalid 0 · expected 0',
    'browser-oracle: info: campaign: 5/10 cases | 1.5 cases/s | ETA 3s | unanimous 1 · outlier 1 · split 0 · insufficient 0 · invalid 1 · expected 1',
    'browser-oracle: info: campaign: 6/10 cases | 1.0 cases/s | ETA 4s | unanimous 1 · outlier 1 · split 1 · insufficient 0 · invalid 1 · expected 1',
    'browser-oracle: info: campaign: 6/10 cases | 1.0 cases/s | ETA 4s | unanimous 1 · outlier 1 · split 1 · insufficient 0 · invalid 1 · expected 1',
    '',
  ]);
});

test('an unknown total (stdin): no total, no ETA', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const stream = fakeStream(false);
  let clock = 0;
  const progress = new CampaignProgressBar({ total: null, stream, now: () => clock });
  clock = 60000;
  for (let i = 0; i < 90; i++) progress.recorded({ verdict: 'insufficient', expected: null });
  progress.stop();
  assert.equal(
    stream.text.split('\n')[1],
    'browser-oracle: info: campaign: 90 cases | 1.5 cases/s | unanimous 0 · outlier 0 · split 0 · insufficient 90 · invalid 0 · expected 0',
  );
});

test('on a TTY: a bar redrawn in place, and the cursor given back', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const stream = fakeStream(true);
  let clock = 0;
  const progress = new CampaignProgressBar({ total: 4, stream, now: () => clock });
  clock = 1000;
  progress.recorded({ verdict: 'unanimous', expected: null });
  progress.stop();
  const frames = stream.text
    .split('\x1b[1G')
    .slice(1)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the frames are terminal output; the escapes are what is stripped.
    .map((frame) => frame.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, ''));
  assert.equal(
    frames.at(-1),
    `${'█'.repeat(10)}${'░'.repeat(30)} 1/4 cases | 1.0 cases/s | ETA 3s | unanimous 1 · outlier 0 · split 0 · insufficient 0 · invalid 0 · expected 0\n`,
  );
  assert.ok(stream.text.endsWith('\x1b[?25h\x1b[?7h\x1b8\n'), 'cursor shown, line wrap restored, on a new line');
});

test('by default it writes to stderr, never to stdout', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const written = { stdout: '', stderr: '' };
  for (const name of ['stdout', 'stderr'] as const) {
    t.mock.method(process[name], 'write', (chunk: unknown) => {
      written[name] += String(chunk);
      return true;
    });
  }
  const progress = new CampaignProgressBar({ total: 1 });
  progress.recorded({ verdict: 'unanimous', expected: null });
  progress.stop();
  t.mock.restoreAll();
  assert.equal(written.stdout, '');
  assert.match(written.stderr, /1\/1 cases/);
});
