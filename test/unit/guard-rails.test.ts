// The guard rails are true: each rule the build and `npm run lint` state is seen to fail on a
// planted violation (a `document` in Node code, an unused export, a forbidden import), and to pass
// what it allows. Each check runs the repository's own configuration
// (copied) on a temporary tree that holds the planted files only, so it takes seconds and never
// touches the repository.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const trees: string[] = [];
after(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true });
});

/** The repository's configuration files: the TypeScript projects and the lint tools' configs. */
function configFiles(): string[] {
  const top = readdirSync(REPO).filter((f) => /^(tsconfig.*\.json|knip\.json|\.dependency-cruiser\.mjs)$/.test(f));
  const nested = readdirSync(join(REPO, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => /(^|\/)tsconfig\.json$/.test(f));
  return [...top, ...nested.map((f) => join('src', f))];
}

/** A temporary tree with the configuration, the repository's node_modules, and `files`. */
function plantTree(files: Record<string, string>): string {
  const tree = mkdtempSync(join(tmpdir(), 'guard-rails-'));
  trees.push(tree);
  for (const file of configFiles()) {
    mkdirSync(dirname(join(tree, file)), { recursive: true });
    cpSync(join(REPO, file), join(tree, file));
  }
  symlinkSync(join(REPO, 'node_modules'), join(tree, 'node_modules'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, file)), { recursive: true });
    writeFileSync(join(tree, file), text);
  }
  return tree;
}

/** The command `npm run lint` runs for `tool`, exactly as package.json has it. */
function lintStep(tool: string): string {
  const step = scripts.lint
    .split('&&')
    .map((s) => s.trim())
    .find((s) => s.split(/\s+/)[0] === tool);
  assert.ok(step, `npm run lint runs no ${tool}`);
  return step;
}

function run(command: string, cwd: string): { status: number | null; output: string } {
  const result = spawnSync('sh', ['-c', command], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${join(REPO, 'node_modules', '.bin')}:${process.env.PATH}`, NO_COLOR: '1' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function parseProject(path: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(path, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  });
  assert.ok(parsed, path);
  return parsed;
}

/** The projects `npm run build` builds: those its `tsc -b` names, and those they reference. */
function buildProjects(tree: string): Map<string, ts.ParsedCommandLine> {
  const named = /tsc -b ([^&]+)/.exec(scripts.build)?.[1];
  assert.ok(named, 'npm run build runs no tsc -b');
  const projects = new Map<string, ts.ParsedCommandLine>();
  const queue = named
    .trim()
    .split(/\s+/)
    .map((p) => join(tree, p));
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    if (projects.has(path)) continue;
    const parsed = parseProject(path);
    projects.set(path, parsed);
    for (const reference of parsed.projectReferences ?? []) queue.push(ts.resolveProjectReferencePath(reference));
  }
  return projects;
}

/** Source files parsed once for all the projects: most of the time is spent on @types/node. */
const sources = new Map<string, ts.SourceFile | undefined>();
function parse(name: string, language: ts.ScriptTarget | ts.CreateSourceFileOptions): ts.SourceFile | undefined {
  const text = ts.sys.readFile(name);
  return text === undefined ? undefined : ts.createSourceFile(name, text, language);
}

/** For each of `files`, the errors of every build project that compiles it (none: not compiled). */
function compileErrors(tree: string, files: string[]): Map<string, string[][]> {
  const errors = new Map<string, string[][]>(files.map((f) => [f, []]));
  for (const parsed of buildProjects(tree).values()) {
    const covered = files.filter((f) => parsed.fileNames.includes(join(tree, f)));
    if (covered.length === 0) continue;
    const host = ts.createCompilerHost(parsed.options);
    host.getSourceFile = (name, language) => sources.get(name) ?? sources.set(name, parse(name, language)).get(name);
    const program = ts.createProgram({
      rootNames: parsed.fileNames,
      options: parsed.options,
      projectReferences: parsed.projectReferences,
      host,
    });
    for (const file of covered) {
      const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(join(tree, file)));
      errors
        .get(file)
        ?.push(diagnostics.filter((d) => d.file !== undefined).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')));
    }
  }
  return errors;
}

test('`document` outside src/page and the DOM-typed tests is a compile error in every project that builds it', () => {
  const planted = 'export const planted = document.title;\n';
  const forbidden = [
    'src/coordinator/planted.ts',
    'src/workers/host/planted.ts',
    'src/protocol/planted.ts',
    'src/cli/planted.ts',
    'src/index.ts',
    'bench/planted.ts',
    'test/unit/planted.test.ts',
    'test/support/planted.ts',
  ];
  const allowed = ['src/page/planted.ts', 'test/unit/planted.dom.test.ts'];
  const tree = plantTree(Object.fromEntries([...forbidden, ...allowed].map((f) => [f, planted])));
  const errors = compileErrors(tree, [...forbidden, ...allowed]);
  for (const file of forbidden) {
    const byProject = errors.get(file) ?? [];
    assert.ok(byProject.length > 0, `${file}: no project of the build compiles it`);
    for (const messages of byProject)
      assert.ok(
        messages.includes(
          "Cannot find name 'document'. Do you need to change your target library? Try changing the 'lib' compiler option to include 'dom'.",
        ),
        `${file}: ${JSON.stringify(messages)}`,
      );
  }
  for (const file of allowed) {
    const byProject = errors.get(file) ?? [];
    assert.ok(byProject.length > 0, `${file}: no project of the build compiles it`);
    for (const messages of byProject) assert.deepEqual(messages, [], file);
  }
});

test('an unused export or type fails lint, and the same tree without them passes', () => {
  const knip = JSON.parse(readFileSync(join(REPO, 'knip.json'), 'utf8')) as { entry: string[] };
  const entry = knip.entry.find((e) => e.startsWith('src/') && !e.includes('*'));
  assert.ok(entry, 'knip.json names no entry file in src/');
  const used = `import { used } from '${relative(dirname(entry), 'src/system/planted.js').replace(/^(?!\.)/, './')}';\nexport default used;\n`;
  const files = { 'package.json': '{ "name": "planted", "private": true, "type": "module" }\n', [entry]: used };
  const clean = run(lintStep('knip'), plantTree({ ...files, 'src/system/planted.ts': 'export const used = 1;\n' }));
  assert.equal(clean.status, 0, clean.output);
  const planted = 'export const used = 1;\nexport const unusedPlanted = 2;\nexport type UnusedPlanted = number;\n';
  const { status, output } = run(lintStep('knip'), plantTree({ ...files, 'src/system/planted.ts': planted }));
  assert.notEqual(status, 0, output);
  assert.match(output, /Unused exports \(1\)\s+unusedPlanted\s+src\/system\/planted\.ts:2/);
  assert.match(output, /Unused exported types \(1\)\s+UnusedPlanted\s+type\s+src\/system\/planted\.ts:3/);
});

/** An import the layering rules forbid (`rule` names the one that must refuse it) or allow (`rule` absent). */
type Plant = { from: string; to: string; rule?: string; typeOnly?: boolean };

const PLANTS: Plant[] = [
  { rule: 'protocol-imports-nothing', from: 'src/protocol/plant.ts', to: 'src/comparator/target.ts' },
  { rule: 'comparator-imports-only-protocol', from: 'src/comparator/plant.ts', to: 'src/coordinator/target.ts' },
  { rule: 'shared-leaves-import-only-protocol', from: 'src/fonts/plant.ts', to: 'src/system/target.ts' },
  { rule: 'shared-leaves-import-only-protocol', from: 'src/page/plant.ts', to: 'src/workers/target.ts' },
  { rule: 'workers-below-coordinator', from: 'src/workers/host/plant.ts', to: 'src/coordinator/target.ts' },
  { rule: 'coordinator-through-worker-contract', from: 'src/coordinator/plant.ts', to: 'src/workers/target.ts', typeOnly: true },
  { rule: 'tools-above-coordinator', from: 'src/campaign/plant.ts', to: 'src/workers/target.ts' },
  { rule: 'tools-above-coordinator', from: 'src/tools/reduce/plant.ts', to: 'src/workers/target.ts' },
  { rule: 'coordinator-through-worker-contract', from: 'src/coordinator/plant-tool.ts', to: 'src/tools/target.ts' },
  { rule: 'queue-through-an-oracle', from: 'src/queue/plant.ts', to: 'src/worker-contract/target.ts' },
  { rule: 'cli-on-top', from: 'src/api/plant.ts', to: 'src/cli/target.ts' },
  { rule: 'cli-on-top', from: 'src/index.ts', to: 'src/cli/target.ts' },
  { rule: 'json-text-only-in-protocol', from: 'src/page/plant-json-text.ts', to: 'src/protocol/json-text.ts' },
  { rule: 'json-text-only-in-protocol', from: 'test/unit/plant.test.ts', to: 'src/protocol/json-text.ts' },
  { rule: 'engine-folders-through-index', from: 'src/workers/host/plant-engine.ts', to: 'src/workers/engines/chromium/target.ts' },
  { rule: 'engine-folders-through-index', from: 'src/workers/engines/env.ts', to: 'src/workers/engines/webkit/target.ts' },
  { rule: 'engine-folders-apart', from: 'src/workers/engines/firefox/plant.ts', to: 'src/workers/engines/chromium/target.ts' },
  { rule: 'workers-layers-point-down', from: 'src/workers/page-answers.ts', to: 'src/workers/host/target.ts' },
  { rule: 'workers-layers-point-down', from: 'src/workers/engines/plant-task.ts', to: 'src/workers/tasks/target.ts', typeOnly: true },
  { rule: 'jsdom-only-in-dom-tests', from: 'test/unit/plant-jsdom.test.ts', to: 'jsdom' },
  { rule: 'generator-imports-only-protocol', from: 'src/campaign/generator/plant.ts', to: 'src/campaign/journal/target.ts' },
  {
    rule: 'generator-imports-only-protocol',
    from: 'src/campaign/generator/plant-loop.ts',
    to: 'src/campaign/loop/target.ts',
    typeOnly: true,
  },
  { rule: 'candidate-reference-imports-only-protocol', from: 'src/candidate-reference/web/plant.ts', to: 'src/system/target.ts' },
  {
    rule: 'candidate-client-imports-protocol-comparator-system',
    from: 'src/candidate-client/plant.ts',
    to: 'src/candidate-reference/target.ts',
  },
  { rule: 'candidates-start-in-one-place', from: 'src/tools/campaign/plant.ts', to: 'src/candidate-client/process-source.ts' },
  { rule: 'candidate-process-stays-lean', from: 'src/cli/candidate-program.ts', to: 'src/campaign/loop/target.ts' },
  { from: 'src/protocol/allowed.ts', to: 'src/protocol/json-text.ts' },
  { from: 'src/comparator/allowed.ts', to: 'src/protocol/target.ts' },
  { from: 'src/page/allowed.ts', to: 'src/protocol/target.ts' },
  { from: 'src/coordinator/allowed.ts', to: 'src/worker-contract/target.ts' },
  { from: 'src/workers/allowed.ts', to: 'src/worker-contract/target.ts' },
  { from: 'src/cli/allowed.ts', to: 'src/workers/target.ts' },
  { from: 'src/workers/engines/index.ts', to: 'src/workers/engines/chromium/target.ts' },
  { from: 'src/workers/engines/chromium/allowed.ts', to: 'src/workers/engines/chromium/target.ts' },
  { from: 'src/workers/engines/webkit/allowed.ts', to: 'src/workers/engines/time-limits.ts' },
  { from: 'src/workers/host/allowed.ts', to: 'src/workers/engine.ts' },
  { from: 'test/e2e/allowed.ts', to: 'src/workers/engines/firefox/target.ts' },
  { from: 'bench/allowed.ts', to: 'src/workers/engines/webkit/target.ts' },
  { from: 'test/unit/allowed.dom.test.ts', to: 'jsdom' },
  { from: 'src/campaign/generator/allowed.ts', to: 'src/protocol/target.ts' },
  { from: 'src/campaign/loop/allowed.ts', to: 'src/campaign/generator/target.ts' },
  { from: 'src/candidate-reference/taffy/allowed.ts', to: 'src/protocol/target.ts' },
  { from: 'src/candidate-reference/web/allowed-font.ts', to: 'src/fonts/target.ts' },
  { from: 'src/candidate-client/allowed.ts', to: 'src/comparator/target.ts' },
  { from: 'src/tools/candidate-session.ts', to: 'src/candidate-client/process-source.ts' },
  { from: 'src/candidate-client/allowed-log.ts', to: 'src/system/target.ts' },
];

function importOf(plant: Plant): string {
  const specifier = plant.to.startsWith('src/')
    ? relative(dirname(plant.from), plant.to)
        .replace(/\.ts$/, '.js')
        .replace(/^(?!\.)/, './')
    : plant.to;
  return plant.typeOnly
    ? `import type { Planted } from '${specifier}';\nexport type Seen = Planted;\n`
    : `import * as planted from '${specifier}';\nexport const seen = planted;\n`;
}

test('every layering rule refuses its planted import and lets the allowed ones through, types included', async () => {
  const config = (await import(pathToFileURL(join(REPO, '.dependency-cruiser.mjs')).href)) as {
    default: { forbidden: { name: string }[] };
  };
  const rules = config.default.forbidden.map((r) => r.name);
  assert.deepEqual(new Set(PLANTS.flatMap((p) => p.rule ?? [])), new Set(rules), 'each rule has a plant, and each plant a rule');

  const files: Record<string, string> = {};
  for (const plant of PLANTS) {
    files[plant.from] = importOf(plant);
    if (plant.to.startsWith('src/')) files[plant.to] ??= 'export const planted = 1;\nexport type Planted = number;\n';
  }
  const tree = plantTree(files);
  const { status, output } = run(lintStep('depcruise'), tree);
  const refused = [...output.matchAll(/^\s*error ([\w-]+): (\S+) → (\S+)$/gm)].map(([, rule, from, to]) => ({ rule, from, to }));
  const expected = PLANTS.filter((p) => p.rule !== undefined);
  assert.notEqual(status, 0, output);
  assert.deepEqual(refused.map((r) => `${r.rule}: ${r.from}`).sort(), expected.map((p) => `${p.rule}: ${p.from}`).sort(), output);
  for (const plant of expected) {
    const found = refused.find((r) => r.from === plant.from);
    assert.ok(found?.to.includes(plant.to === 'jsdom' ? 'node_modules/jsdom/' : plant.to), `${plant.from} → ${found?.to}`);
  }
  // Each refusal carries its rule's message.
  assert.match(output, /src\/protocol is the wire contract: it imports nothing of ours\./);
});
