// A reference candidate's process loads its own command alone (src/cli/candidate-program.ts):
// every campaign that names one starts it, and starts it again after each crash. Node's module
// loader names each module it loads (NODE_DEBUG=esm), so the test reads what was loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { commandArgv } from '../../src/candidate-client/process-source.js';

/** This package's dist/src, as a file URL: where the CLI a reference candidate runs lives. */
const DIST_SRC = pathToFileURL(commandArgv('taffy')[1]!).href.replace(/cli\/main\.js$/, '');

/** What the process answered, and the modules of this package's dist/src it loaded (relative to dist/src). */
function run(argv: string[], input: string): { stdout: string; modules: string[] } {
  const [command, ...args] = argv;
  const done = spawnSync(command!, args, { input, encoding: 'utf8', env: { ...process.env, NODE_DEBUG: 'esm' }, maxBuffer: 1 << 28 });
  assert.equal(done.status, 0, done.stderr.slice(-2000));
  const stored = [...done.stderr.matchAll(/Storing (file:\S+?\.js)/g)].map((m) => m[1]!);
  const modules = new Set(stored.filter((url) => url.startsWith(DIST_SRC)).map((url) => url.slice(DIST_SRC.length)));
  return { stdout: done.stdout, modules: [...modules] };
}

for (const name of ['taffy', 'yoga']) {
  test(`candidate ${name} answers without loading the other commands' modules`, () => {
    const { stdout, modules } = run(commandArgv(name, 'square'), '{"op":"ping","id":"p"}\n');
    assert.equal((JSON.parse(stdout) as { name: string }).name, name);
    assert.ok(modules.includes(`candidate-reference/${name}/engine.js`), `the ${name} engine was loaded: ${modules.join(' ')}`);
    const strays = modules.filter(
      (m) => !/^(candidate-reference|protocol|fonts|system)\/|^cli\/(main|candidate-program|candidate-command|base-program)\.js$/.test(m),
    );
    assert.deepEqual(strays, []);
  });
}

test('the oracle itself still loads the whole command line (the check above sees what is loaded)', () => {
  const { modules } = run([process.execPath, commandArgv('taffy')[1]!, '--help'], '');
  assert.ok(modules.length > 0, `no module of ${DIST_SRC} was seen loading`);
  assert.ok(modules.includes('cli/program.js') && modules.includes('coordinator/stdio.js'), modules.join(' '));
});
