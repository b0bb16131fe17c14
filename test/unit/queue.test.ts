// The queue's pure parts: --queue URLs (checked, and shown without their password) and the
// shapes of what travels through Redis, checked on arrival.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../src/protocol/errors.js';
import { PASSWORD_ENV, queueUrl, resultsQueue, shown } from '../../src/queue/connection.js';
import { checkCaseJob, checkCaseResult, type WorkerInfo } from '../../src/queue/jobs.js';
import { disagreement } from '../../src/queue/setups.js';
import { answerLine, plainJson } from '../../src/protocol/wire.js';

test('queueUrl takes redis:// and rediss:// with a host and an optional database number', () => {
  assert.equal(queueUrl('redis://127.0.0.1:6379/0').host, '127.0.0.1:6379');
  assert.equal(queueUrl('rediss://:secret@redis.example:6380/2').protocol, 'rediss:');
  assert.equal(queueUrl('redis://localhost').pathname, '');
});

test('queueUrl refuses what is not a Redis URL, naming it without its password', () => {
  assert.throws(() => queueUrl('localhost:6379'), ConfigError);
  assert.throws(
    () => queueUrl('http://:pw@host/0'),
    (e: Error) => e instanceof ConfigError && e.message.includes('***') && !e.message.includes('pw@'),
  );
  assert.throws(() => queueUrl('redis://host/queue'), /the path must be a database number/);
});

test('shown hides the password and nothing else', () => {
  assert.equal(shown(new URL('redis://:secret@host:6379/0')), 'redis://:***@host:6379/0');
  assert.equal(shown(new URL('redis://host:6379/0')), 'redis://host:6379/0');
});

test('results queue names hold no colon (BullMQ refuses one)', () => {
  assert.doesNotMatch(resultsQueue('0123456789ab'), /:/);
});

test('a case job: an op, a request object and a reply queue; anything else is named', () => {
  const job = { op: 'vote', request: { id: 'a', op: 'vote', html: '<p>' }, reply: 'browser-oracle-results-x' };
  assert.deepEqual(checkCaseJob(job), job);
  assert.match(String(checkCaseJob({ ...job, op: 'shutdown' })), /^not a case job: \/op/);
  assert.match(String(checkCaseJob({ ...job, reply: '' })), /^not a case job: \/reply/);
  assert.match(String(checkCaseJob({ ...job, extra: 1 })), /^not a case job/);
  assert.match(String(checkCaseJob('text')), /^not a case job/);
});

test('a case result carries the worker (host, pid, engines, versions, profile, fonts) and the answer line', () => {
  const worker = {
    host: 'm1',
    pid: 7,
    engines: ['chromium'],
    versions: { chromium: '1.2' },
    profile: 'default',
    fonts: 'liberation',
    network: 'namespace',
  };
  const result = { worker, answer: { id: 'q1', dumps: {} } };
  assert.deepEqual(checkCaseResult(result), result);
  assert.match(String(checkCaseResult({ ...result, worker: { ...worker, host: undefined } })), /^not a case result: \/worker/);
  assert.match(String(checkCaseResult({ ...result, worker: { ...worker, engines: ['lynx'] } })), /^not a case result: \/worker\/engines/);
  assert.match(String(checkCaseResult({ worker })), /^not a case result: \/answer/);
  assert.match(String(checkCaseResult({ worker, answer: '{"id":"q1"}' })), /^not a case result: \/answer/);
  assert.match(String(checkCaseResult({ ...result, worker: { ...worker, extra: true } })), /^not a case result/);
});

test('workers that run the same builds, fonts and profile agree; any difference is named, with both hosts', () => {
  const a: WorkerInfo = {
    host: 'm1',
    pid: 1,
    engines: ['chromium', 'firefox'],
    versions: { chromium: '156', firefox: '153' },
    profile: 'default',
    fonts: 'liberation',
  };
  assert.equal(disagreement(a, { ...a, host: 'm2', pid: 2 }), undefined);
  assert.equal(
    disagreement(a, { ...a, host: 'm2', pid: 2, versions: { chromium: '157', firefox: '153' } }),
    'm1:1 runs chromium 156, fonts liberation, profile default; m2:2 runs chromium 157, fonts liberation, profile default',
  );
  assert.equal(
    disagreement(a, { ...a, host: 'm2', pid: 2, engines: ['chromium'], versions: { chromium: '156' } }),
    'm1:1 runs firefox 153, fonts liberation, profile default; m2:2 runs firefox not launched, fonts liberation, profile default',
  );
  assert.match(disagreement(a, { ...a, fonts: 'square' }) ?? '', /fonts liberation.*fonts square/);
  assert.match(disagreement(a, { ...a, profile: 'media' }) ?? '', /profile default.*profile media/);
});

test('a URL without a password takes it from BROWSER_ORACLE_REDIS_PASSWORD (kept out of ps); one in the URL wins', () => {
  const env = { [PASSWORD_ENV]: 'p@ss word' };
  assert.equal(queueUrl('redis://host:6379/0', env).password, 'p%40ss%20word');
  assert.equal(queueUrl('redis://:given@host:6379/0', env).password, 'given');
  assert.equal(queueUrl('redis://host:6379/0', {}).password, '');
});

test('an answer parsed from another process goes back to one line: plainJson escapes every line break and refuses what has no JSON', () => {
  const parsed = JSON.parse('{"id":"q1","dumps":{"chromium":{"text":"a\\nb\\u2028c","n":-0.5}}}') as { dumps: unknown };
  const line = answerLine({ id: 'case', dumps: plainJson(parsed.dumps) }).join('');
  assert.equal(line, '{"id":"case","dumps":{"chromium":{"text":"a\\nb\u2028c","n":-0.5}}}\n');
  assert.equal(line.indexOf('\n'), line.length - 1);
  assert.throws(() => plainJson(undefined), /has no JSON form/);
});
