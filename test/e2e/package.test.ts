// The package as a user gets it: packed from a copy of the source tree that has no dist/ (so
// prepack must build it), installed from the tarball into a fresh project outside the
// repository, compiled as a strict TypeScript consumer (tsc, where a type error fails) beside the README's
// example, then run against a real engine.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'browser-oracle-package-'));
after(() => rmSync(work, { recursive: true, force: true }));

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

const installedVersion = (name: string) =>
  (JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** The source tree as a fresh clone has it (tracked and new files, nothing ignored), with the repository's node_modules. */
function copySource(): string {
  const source = join(work, 'source');
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], REPO).split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(source, file)), { recursive: true });
    cpSync(join(REPO, file), join(source, file));
  }
  symlinkSync(join(REPO, 'node_modules'), join(source, 'node_modules'));
  return source;
}

/** The README's TypeScript example, as a reader pastes it. */
function readmeExample(): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Use it from TypeScript'));
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(example, 'the README has no TypeScript example');
  return example;
}

const CONSUMER = `import { ConfigError, Oracle, compare, vote, type GeometryResponse, type VoteResult } from 'browser-oracle';

const oracle = await Oracle.launch({ engines: ['chromium'], workers: 1, pages: 1 });
try {
  const answer: GeometryResponse = await oracle.geometry({ html: '<p>hi</p>' });
  const dump = answer.dumps.chromium!;
  const verdict: VoteResult = vote(answer);
  const rejected = await Oracle.launch({ workers: 0 }).then(
    () => 'launched',
    (error: unknown) => (error instanceof ConfigError ? error.message : 'another error'),
  );
  // The types are real: each of these is a compile error.
  // @ts-expect-error html is a string
  void (() => oracle.geometry({ html: 42 }));
  // @ts-expect-error presto is not an engine
  void (() => Oracle.launch({ engines: ['presto'] }));
  // @ts-expect-error a comparison has no outlier
  void (() => compare(dump, dump).outlier);
  console.log(
    JSON.stringify({
      engines: oracle.engines,
      version: dump.engine_version,
      tags: dump.nodes.map((node) => node.tag),
      compare: compare(dump, dump).verdict,
      vote: verdict.verdict,
      rejected,
    }),
  );
} finally {
  await oracle.close();
}
`;

test('npm pack of a fresh tree, installed elsewhere: a strict TypeScript consumer type-checks and runs on chromium', {
  timeout: 900_000,
}, () => {
  const source = copySource();
  run('npm', ['pack', '--pack-destination', work], source);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack wrote no tarball');
  const listing = run('tar', ['-tzf', join(work, tarball)], work);
  for (const file of [
    'package/dist/src/index.js',
    'package/dist/src/index.d.ts',
    'package/dist/src/workers/case-worker.js',
    'package/config/fonts.conf',
  ])
    assert.ok(listing.includes(`${file}\n`), `${file} is not in the tarball`);
  assert.doesNotMatch(listing, /\.map\n|package\/(src|test|bench)\//, 'sources, tests and source maps stay out');

  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: { 'browser-oracle': `file:../${tarball}` },
      devDependencies: { typescript: installedVersion('typescript'), '@types/node': installedVersion('@types/node') },
    }),
  );
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        skipLibCheck: false,
        outDir: 'out',
      },
      files: ['consumer.ts', 'readme.ts'],
    }),
  );
  writeFileSync(join(consumer, 'consumer.ts'), CONSUMER);
  // Type-checked with the consumer; not run, since it launches all three engines.
  writeFileSync(join(consumer, 'readme.ts'), readmeExample());
  // --ignore-scripts: better-sqlite3 (the campaign journal) compiles from source for minutes on
  // this machine, and nothing the library entry loads uses it; the run below shows that.
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], consumer);
  const tsc = join(consumer, 'node_modules', 'typescript', 'bin', 'tsc');
  // One compile both checks and emits: a type error (an unused @ts-expect-error too) exits non-zero, emitted or not.
  run(process.execPath, [tsc, '-p', '.'], consumer);

  const output = JSON.parse(run(process.execPath, [join(consumer, 'out', 'consumer.js')], consumer)) as Record<string, unknown>;
  assert.deepEqual(output.engines, ['chromium']);
  assert.match(String(output.version), /^\d+\.\d+\.\d+\.\d+$/);
  assert.deepEqual(output.tags, ['HTML', 'HEAD', 'BODY', 'P']);
  assert.equal(output.compare, 'pass');
  assert.equal(output.vote, 'insufficient', 'one engine cannot vote three ways');
  assert.equal(output.rejected, 'launch options: field "workers": expected integer to be greater or equal to 1');
});
