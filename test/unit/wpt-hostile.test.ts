// wpt-import on checkouts that fight back: symbolic-link loops, links out of the checkout and to
// nothing, a file of hundreds of megabytes, a FIFO, names that are not UTF-8 or that hold control
// characters, folders a thousand deep. The import ends, takes each test once, says what it
// refuses and why, reads no file past its limit, and costs time in proportion to the tree.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Checkout } from '../../src/wpt/checkout.js';
import { ImportSummary, importTests, type Imported } from '../../src/wpt/import.js';
import { visible } from '../../src/system/visible-text.js';
import { fixtureCheckout } from '../support/wpt-checkout.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const trees: { remove(): void }[] = [];
after(() => {
  for (const tree of trees) tree.remove();
});

/** A fresh copy of the fixture checkout, with `build` adding to it. */
function checkoutWith(build: (dir: string) => void): string {
  const tree = fixtureCheckout();
  trees.push(tree);
  build(tree.dir);
  return tree.dir;
}

const TEST = '<!doctype html><script src=/resources/testharness.js></script><script>test(() => {}, "t")</script>';

/** At most `limit` results of an import: an import that never ends is seen to pass the limit instead of hanging the test. */
function importAtMost(dir: string, paths: string[], limit = 500, options?: { maxFileBytes?: number }): Imported[] {
  const found: Imported[] = [];
  for (const imported of importTests(Checkout.open(dir, options), paths)) {
    found.push(imported);
    if (found.length > limit) break;
  }
  return found;
}

const outcomes = (found: Imported[]) =>
  Object.fromEntries(
    found.map((i) => [
      i.path,
      'converted' in i
        ? 'converted'
        : 'refused' in i
          ? `${i.refused.reason}: ${i.refused.detail}`
          : 'skipped' in i
            ? `skip: ${i.skipped}`
            : 'layout',
    ]),
  );

test('symbolic-link loops are walked once: each test is taken once, each folder walked once, the links said', () => {
  const dir = checkoutWith((d) => {
    mkdirSync(join(d, 'loops/sub/deeper'), { recursive: true });
    writeFileSync(join(d, 'loops/a.html'), TEST);
    writeFileSync(join(d, 'loops/sub/deeper/b.html'), TEST);
    symlinkSync('.', join(d, 'loops/self'));
    symlinkSync('..', join(d, 'loops/sub/up'));
    symlinkSync('../..', join(d, 'loops/sub/deeper/top'));
    symlinkSync('a.html', join(d, 'loops/alias.html'));
    mkdirSync(join(d, 'elsewhere'));
    writeFileSync(join(d, 'elsewhere/c.html'), TEST);
    symlinkSync('../elsewhere', join(d, 'loops/linked'));
    symlinkSync('../loops', join(d, 'elsewhere/back'));
  });
  const found = importAtMost(dir, ['loops']);
  assert.deepEqual(outcomes(found), {
    'loops/a.html': 'converted',
    'loops/alias.html': 'skip: a link to loops/a.html, which is taken under its own path',
    // A folder outside the walk, reached by a link: walked once, under the link's path.
    'loops/linked/back': 'skip: a link to loops, a folder it is in (a loop)',
    'loops/linked/c.html': 'converted',
    'loops/self': 'skip: a link to loops, a folder it is in (a loop)',
    'loops/sub/deeper/b.html': 'converted',
    'loops/sub/deeper/top': 'skip: a link to loops, a folder it is in (a loop)',
    'loops/sub/up': 'skip: a link to loops, a folder it is in (a loop)',
  });
  // The whole checkout: the folder the link leads to is walked under its own path, the link not followed.
  const all = outcomes(importAtMost(dir, ['']));
  assert.equal(all['elsewhere/c.html'], 'converted');
  assert.equal(all['loops/linked'], 'skip: a link to elsewhere, which is walked under its own path');
  assert.equal(all['loops/linked/c.html'], undefined);
  const summary = new ImportSummary();
  for (const i of found) summary.add(i);
  assert.match(String(summary), /^3 test\(s\): 3 converted .*; 5 link\(s\) not followed$/);
});

test('a file over the size limit is refused without being read, and the import goes on', () => {
  const dir = checkoutWith((d) => {
    mkdirSync(join(d, 'big'));
    // Sparse: 700 MB that take no room on disk.
    const fd = openSync(join(d, 'big/huge.html'), 'w');
    ftruncateSync(fd, 700 * 1000 * 1000);
    closeSync(fd);
    const js = openSync(join(d, 'big/huge.js'), 'w');
    ftruncateSync(js, 100 * 1024 * 1024);
    closeSync(js);
    writeFileSync(join(d, 'big/loads-huge.html'), TEST.replace('<script>', '<script src=huge.js></script><script>'));
    writeFileSync(join(d, 'big/z-after.html'), TEST);
  });
  assert.deepEqual(outcomes(importAtMost(dir, ['big'])), {
    'big/huge.html': 'too_large: big/huge.html has 667.6 MiB; the importer reads no file over 16 MiB',
    'big/loads-huge.html': 'too_large: big/huge.js has 100 MiB; the importer reads no file over 16 MiB',
    'big/z-after.html': 'converted',
  });
  // The limit holds however the file is met (here, named by itself), and is the checkout's to set.
  writeFileSync(join(dir, 'big/padded.html'), TEST + ' '.repeat(300 * 1024));
  assert.deepEqual(outcomes(importAtMost(dir, ['big/padded.html'], 500, { maxFileBytes: 256 * 1024 })), {
    'big/padded.html': 'too_large: big/padded.html has 300.1 KiB; the importer reads no file over 256 KiB',
  });
});

test('names that are not UTF-8, links out of the checkout or to nothing, and a FIFO are refused with their reasons, never skipped in silence', () => {
  const dir = checkoutWith((d) => {
    const at = (...names: (string | Buffer)[]) => Buffer.concat([Buffer.from(`${d}/`), ...names.map((n) => Buffer.from(n))]);
    mkdirSync(join(d, 'odd'));
    writeFileSync(at('odd/caf', Buffer.from([0xe9]), '.html'), TEST);
    mkdirSync(at('odd/f', Buffer.from([0xff])));
    writeFileSync(at('odd/f', Buffer.from([0xff]), '/inside.html'), TEST);
    writeFileSync(at('odd/image', Buffer.from([0xe9]), '.png'), 'not a test by its name');
    symlinkSync('/etc/hostname', join(d, 'odd/out.html'));
    symlinkSync('/usr/share', join(d, 'odd/outdir'));
    symlinkSync('nowhere.html', join(d, 'odd/gone.html'));
    spawnSync('mkfifo', [join(d, 'odd/pipe.html')]);
    writeFileSync(join(d, 'odd/ok.html'), TEST);
  });
  assert.deepEqual(outcomes(importAtMost(dir, ['odd'])), {
    'odd/caf\\xe9.html':
      "bad_name: the name is not UTF-8 (shown with \\xHH for each byte past ASCII): a test's id and URL are text; rename it",
    'odd/f\\xff': "bad_name: the name is not UTF-8 (shown with \\xHH for each byte past ASCII): a test's id and URL are text; rename it",
    'odd/gone.html': 'unreadable: odd/gone.html is a link to nothing (no such file or directory)',
    'odd/ok.html': 'converted',
    'odd/out.html': 'outside_checkout: odd/out.html is a link that leads out of the checkout',
    'odd/outdir': 'outside_checkout: odd/outdir is a link that leads out of the checkout',
    'odd/pipe.html': 'unreadable: odd/pipe.html is not a regular file (a FIFO)',
  });
});

test('the command shows a checkout’s names without acting on them', () => {
  const dir = checkoutWith((d) => {
    mkdirSync(join(d, 'ctl'));
    writeFileSync(join(d, 'ctl/x\u001b[2J\u202e.html'), '<!doctype html><p>no harness</p>');
  });
  for (const flags of [[], ['--emit']]) {
    const run = spawnSync(process.execPath, [MAIN, 'wpt-import', dir, 'ctl', ...flags], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const lines = [...run.stdout.split('\n'), ...run.stderr.split('\n')].filter(Boolean);
    for (const line of lines) assert.equal(visible(line), line);
    assert.ok(
      lines.some((l) => l.includes('ctl/x\\x1b[2J\\u202e.html')),
      lines.join('\n'),
    );
  }
});

/** CPU time (µs) this process spends on `work`, the least of two runs. */
function cpuOf(work: () => void): number {
  let least = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 2; run++) {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    least = Math.min(least, used.user + used.system);
  }
  return least;
}

test('folders a thousand deep cost in proportion to their depth', () => {
  // A chain of folders `n` deep, a test at the bottom, in two checkouts 4 times apart in depth.
  const deep = (n: number) =>
    checkoutWith((d) => {
      const bottom = join(d, 'deep', ...Array.from({ length: n }, () => 'd'));
      mkdirSync(bottom, { recursive: true });
      writeFileSync(join(bottom, 't.html'), TEST);
    });
  const [shallow, deeper] = [deep(250), deep(1000)];
  const cost = (dir: string, n: number) =>
    cpuOf(() => {
      const found = importAtMost(dir, ['deep'], 5);
      assert.deepEqual(
        found.map((i) => [i.path.split('/').length, 'converted' in i]),
        [[n + 2, true]],
      );
    });
  const ratio = cost(deeper, 1000) / cost(shallow, 250);
  assert.ok(ratio < 16, `4 times the depth cost ${ratio.toFixed(1)} times the CPU`);
});
