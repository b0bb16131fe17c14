// Hostile cases against the oracle's own resources and its error classes (issue 9): documents far
// too large, floods of refused requests, downloads, dialogs, a case that leaves its document, a
// renderer or content process killed under a case, and start-up that cannot succeed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { isAlive, type Line, ORACLE_BIN, ORACLE_ENV, OracleProcess, UNHURRIED } from '../support/oracle-process.js';
import { engineProcesses, killAll } from '../support/processes.js';

const codes = (answer: Line) => Object.fromEntries(Object.entries(answer.errors ?? {}).map(([e, text]) => [e, String(text).split(':')[0]]));

describe('limits and error classes', () => {
  let oracle: OracleProcess;
  before(async () => {
    // 1 MB per engine's answer: far above any ordinary case here, far below what a case can make.
    oracle = new OracleProcess(['--workers=1', '--pages=1', UNHURRIED, '--max-answer-bytes=3000000']);
    await oracle.ready();
  });
  after(() => oracle.shutdown());

  test('a tiny request that builds a huge document is answered dump_too_large, and the oracle goes on', async () => {
    const huge = await oracle.request({
      id: 'huge',
      html: '<p>',
      script: "const t='x'.repeat(200);let h='';for(let i=0;i<250000;i++)h+='<a'+t+'></a'+t+'>';document.body.innerHTML=h",
    });
    assert.deepEqual(codes(huge), { chromium: 'dump_too_large', firefox: 'dump_too_large', webkit: 'dump_too_large' });
    const many = await oracle.request({ id: 'many', html: '<i></i>'.repeat(300_000) });
    assert.deepEqual(codes(many), { chromium: 'dump_too_large', firefox: 'dump_too_large', webkit: 'dump_too_large' });
    const next = await oracle.request({ id: 'next', html: '<p>x</p>' });
    assert.equal(next.errors, undefined);
  });

  test('a trace or a reflect case that answers more than its share of --max-answer-bytes is dump_too_large', async () => {
    const trace = await oracle.request({
      id: 'big-trace',
      op: 'trace',
      script: "const s = 'x'.repeat(100000); for (let i = 0; i < 30; i++) trace.value('v' + i, s); trace.done();",
    });
    assert.deepEqual(codes(trace), { chromium: 'dump_too_large', firefox: 'dump_too_large', webkit: 'dump_too_large' });
    const reflect = await oracle.request({
      id: 'big-reflect',
      op: 'reflect',
      html: '<p id=a>x</p>',
      script: "document.getElementById('a').title = 'x'.repeat(2000000)",
      probes: [{ selector: '#a', attr: 'title' }],
    });
    assert.deepEqual(codes(reflect), { chromium: 'dump_too_large', firefox: 'dump_too_large', webkit: 'dump_too_large' });
    // Under the budget, the same kinds of case are answered whole.
    const small = await oracle.request({ id: 'small-trace', op: 'trace', script: "trace.value('v', 'x'.repeat(1000)); trace.done();" });
    assert.equal(small.errors, undefined, JSON.stringify(small.errors));
  });

  test('a flood of refused requests costs a counter: a few lines on stderr, then silence', async () => {
    // The trace ends once the first 40 requests have settled: each was refused, and logged, before its
    // answer, so more than the 20 logged lines were asked for, whatever the machine's speed. A fixed
    // wait would count on that many reaching the proxy in time; the timeout is generous for the same reason.
    const script =
      "const sent=[];for(let i=0;i<2000;i++)sent.push(fetch('http://192.0.2.1/'+'x'.repeat(16000)+i,{mode:'no-cors'}).catch(()=>{}));" +
      'Promise.all(sent.slice(0,40)).then(()=>trace.done())';
    const flood = await oracle.request({ id: 'flood', op: 'trace', engines: ['chromium'], timeout_ms: 60_000, script });
    assert.equal(flood.traces?.chromium.timed_out, false, 'the first 40 requests settled');
    assert.equal(flood.errors, undefined);
    const lines = oracle.stderr.split('\n').filter((l) => l.includes("refused an engine's request"));
    assert.ok(lines.length <= 20, `${lines.length} refusal lines`);
    assert.match(oracle.stderr, /further refusals are only counted/);
  });

  test('a WebKit download lands nowhere near $HOME, and the next case still has the whole viewport', async () => {
    const name = `oracle-case-wrote-this-${process.pid}.txt`;
    const download = await oracle.request({
      id: 'dl',
      op: 'trace',
      engines: ['webkit'],
      script: `const a=document.createElement('a');a.href=URL.createObjectURL(new Blob(['written by a case']));a.download='${name}';document.body.append(a);a.click();setTimeout(()=>trace.done(),1500)`,
    });
    assert.equal(download.errors, undefined, JSON.stringify(download.errors));
    for (const dir of [homedir(), join(homedir(), 'Downloads')])
      assert.ok(!existsSync(join(dir, name)), `the case wrote ${join(dir, name)}`);
    const after = await oracle.request({ id: 'after-dl', html: '<p>x</p>', engines: ['webkit'] });
    assert.deepEqual(after.dumps.webkit.viewport, { width: 800, height: 600 });
  });

  test('a dialog is dismissed and the trace goes on, in every engine', async () => {
    const answer = await oracle.request({
      id: 'alert',
      op: 'trace',
      script: "alert(1); trace.value('confirm', confirm('x')); trace.done()",
    });
    assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
    for (const engine of ENGINE_NAMES) assert.deepEqual(answer.traces[engine].records[0].value, false, engine);
  });

  test('a trace that leaves its page is page_tampered, not a crash', async () => {
    const answer = await oracle.request({ id: 'away', op: 'trace', script: "location.href='about:blank'" });
    assert.deepEqual(codes(answer), { chromium: 'page_tampered', firefox: 'page_tampered', webkit: 'page_tampered' });
  });

  for (const [engine, renderer] of [
    ['chromium', (cmd: string) => cmd.includes('--type=renderer')],
    ['firefox', (cmd: string) => cmd.includes('-contentproc') && cmd.includes('tab')],
  ] as const) {
    test(`a ${engine} renderer killed under a case is a crash, seen at once: retried, never a timeout or a script error`, async () => {
      const answer = oracle.request({
        id: `killed-${engine}`,
        engines: [engine],
        html: '<p>x</p>',
        script: 'const t=Date.now();while(Date.now()-t<4000){}',
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const victims = oracle.descendants().filter((pid) => {
        try {
          return renderer(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
        } catch {
          return false;
        }
      });
      assert.ok(victims.length > 0, `no ${engine} renderer to kill`);
      killAll(victims);
      const result = await answer;
      // Retried on a fresh page, the case runs again and is answered; a second crash would be engine_crashed.
      assert.ok(result.dumps?.[engine] || codes(result)[engine] === 'engine_crashed', JSON.stringify(result.errors));
    });
  }
});

describe('start-up and signals', () => {
  test('Xvfb runs in a process group of its own, so a Ctrl-C reaches the oracle alone', async () => {
    const oracle = new OracleProcess(['--workers=1', '--engines=webkit']);
    try {
      await oracle.ready();
      const group = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[2]);
      const xvfb = oracle.descendants().filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('Xvfb'));
      assert.equal(xvfb.length, 1);
      assert.notEqual(group(xvfb[0]!), group(oracle.pid));
    } finally {
      await oracle.shutdown();
    }
  });

  test('an engine that cannot launch is a one-line error and a non-zero exit, unless asked to go on without it', async () => {
    const missing = await promisify(execFile)(ORACLE_BIN, ['--engines=webkit', '--display=:987'], { env: ORACLE_ENV }).then(
      () => assert.fail('the oracle started without its only engine'),
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    assert.notEqual(missing.code, 0);
    assert.equal(missing.stdout, '');
    const errors = missing.stderr.split('\n').filter((l) => l.startsWith('browser-oracle: error:'));
    assert.equal(errors.length, 1, missing.stderr);
    assert.match(errors[0]!, /webkit: .*:987/);
    // Asked to go on, it serves the engines it has.
    const partial = new OracleProcess(['--engines=chromium,webkit', '--display=:987', '--allow-missing-engines']);
    try {
      const ping = await partial.ready();
      assert.deepEqual(ping.engines, ['chromium']);
    } finally {
      await partial.shutdown();
    }
  });

  test('no process the oracle started outlives it', async () => {
    const oracle = new OracleProcess(['--workers=1']);
    await oracle.ready();
    const started = oracle.descendants();
    assert.ok(engineProcesses(started, 'chromium').length > 0);
    assert.equal(await oracle.shutdown(), 0);
    const alive = started.filter(isAlive);
    assert.deepEqual(alive, []);
    assert.doesNotMatch(oracle.stderr, /left behind by the engines/);
  });
});
