// Real answers of every kind, from a real oracle process, validate against the published JSON
// Schema as a client compiles it (Ajv 8, draft 2020-12, strict): geometry, vote, trace, reflect,
// ping and shutdown, and each kind of error line, the one for a line that is not UTF-8 included.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { OracleProcess, type Line } from '../support/oracle-process.js';
import { compilePublishedSchema, schemaErrors } from '../support/published-schema.js';

const MAX_LINE_BYTES = 4096;
const { request, response } = compilePublishedSchema();
const oracle = new OracleProcess(['--engines=chromium', '--workers=1', '--pages=1', `--max-line-bytes=${MAX_LINE_BYTES}`]);
after(() => oracle.shutdown());

/** Sends a request the schema accepts, and answers the line that comes back. */
async function ask(line: Line): Promise<Line> {
  assert.equal(schemaErrors(request, line), '', `the request ${JSON.stringify(line)}`);
  return oracle.request(line);
}

function assertValid(answer: Line): void {
  assert.equal(schemaErrors(response, answer), '', JSON.stringify(answer).slice(0, 400));
}

test('case answers: geometry (with timing), vote (with dumps), trace and reflect', async () => {
  await oracle.ready();
  const answers = await Promise.all([
    ask({ id: 'g', html: '<p style="width:50px">hi <b>there</b></p>', timing: true }),
    ask({ id: 'v', op: 'vote', html: '<p>hi</p>', dumps: true }),
    ask({ id: 't', op: 'trace', script: "trace.value('n', 1/0); trace.value('o', {a: [1n]}); trace.done();" }),
    ask({ id: 'r', op: 'reflect', html: '<input id=a maxlength=-1>', probes: [{ selector: '#a', attr: 'maxlength', idl: 'maxLength' }] }),
  ]);
  const [geometry, vote, trace, reflect] = answers;
  assert.ok(geometry!.dumps.chromium.nodes.length >= 4);
  assert.equal(vote!.vote.verdict, 'insufficient');
  assert.ok(vote!.dumps.chromium);
  assert.equal(trace!.traces.chromium.records.length, 2);
  assert.equal(reflect!.states.chromium.observations.length, 1);
  for (const answer of answers) assertValid(answer);
});

test('a case an engine fails is answered with its error, and validates', async () => {
  const failed = await ask({ id: 'e', html: '<p>', script: "throw new Error('no')" });
  assert.match(failed.errors.chromium, /^script_error: /);
  assertValid(failed);
});

test('ping reports engines, versions, profile, fonts, network and paths', async () => {
  const ping = await ask({ id: 'p', op: 'ping' });
  assert.deepEqual(ping.engines, ['chromium']);
  assert.deepEqual(Object.keys(ping.paths), ['chromium'], 'the executable of the one engine launched');
  assertValid(ping);
});

test('each error line kind: invalid_json, invalid_request, line_too_long, and a line that is not UTF-8', async () => {
  oracle.sendRaw('{"id": "j", \n');
  oracle.sendRaw('{"id": "q", "html": "<p>", "engines": ["presto"]}\n');
  oracle.sendRaw(`{"id": "long", "html": "${'x'.repeat(MAX_LINE_BYTES)}"}\n`);
  oracle.sendRaw(Buffer.concat([Buffer.from('{"id": "u8", "html": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]));
  oracle.sendRaw(Buffer.concat([Buffer.from('{"id": "bad'), Buffer.from([0xff]), Buffer.from('", "html": ""}\n')]));
  const [invalidRequest, tooLong, notUtf8] = await Promise.all([oracle.response('q'), oracle.response('long'), oracle.response('u8')]);
  // The lines whose id cannot be read are answered with id null, in the order sent.
  await oracle.request({ id: 'after', op: 'ping' });
  const nulls = oracle.lines.filter((line) => line.id === null);
  assert.equal(nulls.length, 2);
  assert.match(nulls[0]!.error, /^invalid_json: the line is not JSON/);
  assert.match(invalidRequest.error, /^invalid_request: field "engines\[0\]"/);
  assert.match(tooLong.error, /^line_too_long: /);
  assert.equal(notUtf8.error, 'invalid_json: the line is not valid UTF-8');
  assert.equal(nulls[1]!.error, 'invalid_json: the line is not valid UTF-8', 'an id holding a bad byte is not trusted');
  for (const line of [invalidRequest, tooLong, notUtf8, ...nulls]) assertValid(line);
});

test('shutdown answers last, and validates', async () => {
  const code = await oracle.shutdown();
  assert.equal(code, 0);
  const last = oracle.lines.at(-1)!;
  assert.deepEqual(last, { id: '__shutdown', ok: true });
  assertValid(last);
});
