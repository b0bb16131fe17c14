// Every file the README, docs/*.md and the command line's help name exists in the repository, so
// a reader who follows one finds it. Named are: paths from the repository's top folders
// (`src/coordinator/stdio.ts`; under dist/, the source it is built from), markdown links, and bare
// names of sources and documents (`wire.ts`, `queue.md`), which some file of the repository must
// have. A path with a wildcard or a placeholder (`test/e2e/*.test.ts`, `engines/<engine>/`) needs
// its folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

const TOP = readdirSync(REPO, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !['node_modules', '.git'].includes(e.name))
  .map((e) => e.name.replace('.', '\\.'));
const ROOTED = new RegExp(`(?<![\\w./-])((?:${[...new Set([...TOP, 'dist'])].join('|')})/[\\w./*<>@-]*[\\w*>/])`, 'g');
const LINK = /\]\(([^)\s]+)\)/g;
const BARE = /(?<![\w./-])([\w-]+(?:\.[\w-]+)*\.(?:ts|mjs|md|sh))(?![\w/])/g;

const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' })
  .split('\0')
  .filter(Boolean);
const basenames = new Set(files.map((f) => basename(f)));

/** Whether a path relative to the repository names something in it. */
function exists(path: string): boolean {
  const wild = path.search(/[*<]/);
  if (wild >= 0) return existsSync(join(REPO, dirname(`${path.slice(0, wild)}x`)));
  const built = /^dist\/(.+)\.(?:js|d\.ts)$/.exec(path);
  if (built) return existsSync(join(REPO, `${built[1]}.ts`));
  if (path.startsWith('dist/')) return true;
  return existsSync(join(REPO, path));
}

/** The paths `text` (the file `doc`, relative to the repository) names that the repository lacks, as `line: path`. */
function missingPaths(text: string, doc: string): string[] {
  const missing: string[] = [];
  text.split('\n').forEach((line, i) => {
    const report = (path: string) => missing.push(`${doc}:${i + 1}: ${path}`);
    for (const [, path] of line.matchAll(ROOTED)) if (!exists(path!.replace(/\/$/, ''))) report(path!);
    for (const [, target] of line.matchAll(LINK)) {
      if (/^(\w+:|#)/.test(target!)) continue;
      const path = normalize(join(dirname(doc), target!.replace(/#.*$/, '')));
      if (!exists(path)) report(target!);
    }
    for (const [, name] of line.matchAll(BARE)) if (!basenames.has(name!)) report(name!);
  });
  return missing;
}

/** The help of the command line and of every command under it. */
function helpTexts(command: Command): string[] {
  return [command.helpInformation(), ...command.commands.flatMap(helpTexts)];
}

test('every path the README and docs/*.md name exists', () => {
  const docs = [
    'README.md',
    ...readdirSync(join(REPO, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  assert.ok(docs.length > 4, docs.join(', '));
  assert.deepEqual(
    docs.flatMap((doc) => missingPaths(readFileSync(join(REPO, doc), 'utf8'), doc)),
    [],
  );
});

test("every path the command line's help names exists", () => {
  const help = helpTexts(buildProgram()).join('\n');
  assert.match(help, /docs\/protocol\.md/);
  assert.deepEqual(missingPaths(help, '--help'), []);
});

test('a missing path is found, whichever way it is named', () => {
  const planted = [
    'The loop is in `src/coordinator/no-such-loop.ts`, built into dist/src/coordinator/no-such-loop.js.',
    'See [the guide](no-such-guide.md#start), [the api](api.md) and OUTSIDE.md, beside wire.ts and gone.ts.',
    'Adapters: src/workers/engines/<engine>/ and src/no-such-folder/*.ts; bench: node dist/bench/run.js.',
  ].join('\n');
  assert.deepEqual(missingPaths(planted, 'docs/planted.md'), [
    'docs/planted.md:1: src/coordinator/no-such-loop.ts',
    'docs/planted.md:1: dist/src/coordinator/no-such-loop.js',
    'docs/planted.md:2: no-such-guide.md#start',
    'docs/planted.md:2: no-such-guide.md',
    'docs/planted.md:2: OUTSIDE.md',
    'docs/planted.md:2: gone.ts',
    'docs/planted.md:3: src/no-such-folder/*.ts',
  ]);
});
