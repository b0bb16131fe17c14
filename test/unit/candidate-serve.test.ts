// A reference candidate's protocol lines (src/candidate-reference/serve.ts), checked against the candidate
// definitions of the published JSON Schema, as another implementation of the protocol would be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readAnswerLine } from '../../src/candidate-client/answer-line.js';
import { answerOutcome } from '../../src/candidate-client/process-source.js';
import { answerLine, referenceEngine } from '../../src/candidate-reference/serve.js';
import { PUBLISHED_SCHEMA } from '../support/published-schema.js';

const schema = JSON.parse(readFileSync(PUBLISHED_SCHEMA, 'utf8')) as { $id: string };
const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(schema);
const definition = (name: string) => ajv.getSchema(`${schema.$id}#/$defs/${name}`)!;

const CASE = '<!doctype html><style>div { display: flex }</style><div style="width: 10px; height: 10px"></div>';

for (const name of ['taffy', 'yoga'] as const) {
  test(`${name}: a ping, a dump, unsupported and errors are the published schema's candidate lines`, async () => {
    const engine = await referenceEngine(name);
    const isAnswer = definition('CandidateAnswer');
    const ping = answerLine(engine, '{"id":"p","op":"ping"}', 'square');
    assert.ok(definition('CandidatePingAnswer')(ping), JSON.stringify(definition('CandidatePingAnswer').errors));
    assert.ok('supports' in ping && ping.supports?.text.includes('*'), 'under --fonts=square it measures any family');
    assert.deepEqual((answerLine(engine, '{"id":"p","op":"ping"}', 'liberation') as { supports: { text: string[] } }).supports.text, [
      'Ahem',
    ]);
    assert.ok(definition('CandidateCase')({ id: 'c', html: CASE }));
    for (const line of [
      JSON.stringify({ id: 'c', html: CASE, engines: ['chromium'] }),
      JSON.stringify({ id: 'u', html: '<!doctype html><div style="width: fit-content(3px)"></div>' }),
      '{"id": "bad"',
      JSON.stringify({ id: 'o', op: 'vote', html: CASE }),
      JSON.stringify({ id: 'h' }),
    ]) {
      const answer = answerLine(engine, line, 'square');
      assert.ok(isAnswer(answer), `${line}: ${JSON.stringify(isAnswer.errors)}`);
    }
    const dump = answerLine(engine, JSON.stringify({ id: 'c', html: CASE }), 'square');
    assert.ok('dump' in dump && dump.dump.engine === name && dump.dump.nodes.length === 5);
    assert.match((answerLine(engine, '{"id": "bad"', 'square') as { error: string }).error, /^invalid_json/);
    assert.match((answerLine(engine, JSON.stringify({ id: 'h' }), 'square') as { error: string }).error, /^invalid_request/);
  });
}

const textOf = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8'));

test('the oracle keeps a reference candidate’s dump as it wrote it, and writes it again only for a line it cannot slice', async () => {
  const engine = await referenceEngine('taffy');
  const line = JSON.stringify(answerLine(engine, JSON.stringify({ id: 'c', html: CASE }), 'square'));
  const value = JSON.parse(line) as { dump: unknown; roots: number[] };
  assert.ok(value.roots, 'the line has roots last');
  const read = readAnswerLine(Buffer.from(line));
  assert.deepEqual(read.value, value, 'the value JSON.parse gives the line');
  assert.equal(textOf(read.dump), JSON.stringify(value.dump), 'the text between the id and the roots, as JSON.stringify writes it');
  const kept = answerOutcome(read.value, 'taffy', read.dump) as { text?: Uint8Array };
  assert.equal(textOf(kept.text), JSON.stringify(value.dump));
  const dump = JSON.stringify(value.dump);
  const withoutRoots = `{"id":"c","dump":${dump}}`;
  assert.equal(textOf(readAnswerLine(Buffer.from(withoutRoots)).dump), dump, 'no roots');
  // The dump's own last key named roots, with the line's roots after it or not.
  const rootsInside = JSON.stringify({ ...(value.dump as object), roots: [1] });
  for (const also of [`{"id":"c","dump":${rootsInside}}`, `{"id":"c","dump":${rootsInside},"roots":[3]}`]) {
    const r = readAnswerLine(Buffer.from(also));
    assert.deepEqual(r.value, JSON.parse(also), also.slice(-30));
    assert.equal(textOf(r.dump), rootsInside);
  }
  for (const other of [
    `{"id":"c","dump":${dump},"dump":${dump},"roots":[3]}`, // a key twice: JSON.parse keeps the last
    `{"id":"c","dump":${dump},"dump":${dump}}`, // the same without roots
    `{"dump":${dump},"id":"c","roots":[3]}`, // another order
    `{ "id": "c", "dump": ${dump}, "roots": [3] }`, // spaced
    `{"id":"c","dump":${dump},"dump" :${dump},"roots":[3]}`, // a key twice, the second spaced
    `{"id":"c","dump":${dump},"\\u0064ump":${dump},"roots":[3]}`, // a key twice, the second escaped
    `{"id":"c","dump":${dump},"roots":[3],"roots":[4]}`, // roots twice
    `{"id":"c","dump":${dump},"placed":false,"roots":[3]}`, // another key between
    `{"id":"c\\u0022","dump":${dump}}`, // an id with an escape
  ]) {
    const r = readAnswerLine(Buffer.from(other));
    assert.deepEqual(r.value, JSON.parse(other), other.slice(0, 40));
    assert.equal(r.dump, undefined, other.slice(0, 40));
    assert.equal(answerOutcome(r.value, 'taffy', r.dump).kind, 'dump', other.slice(0, 40));
  }
  // What is not JSON whole is not an answer, whatever its parts are.
  for (const broken of [`{"id":"c","dump":${dump}}x`, `{"id":"c","dump":${dump}`, `{"id":"c","dump":${dump},"roots":[3]`])
    assert.throws(() => readAnswerLine(Buffer.from(broken)), SyntaxError, broken.slice(-20));
});

test('the kept dump is the bytes the candidate wrote, whatever characters the line holds before it, and text when they were not UTF-8', async () => {
  const engine = await referenceEngine('taffy');
  // An id of characters of two, three and four bytes: the dump's bytes start after its bytes, not its characters.
  const id = 'é€😀';
  const line = JSON.stringify(answerLine(engine, JSON.stringify({ id, html: CASE }), 'square'));
  const value = JSON.parse(line) as { dump: unknown };
  const bytes = Buffer.from(line);
  const read = readAnswerLine(bytes);
  assert.deepEqual(read.value, value);
  // The kept bytes are a copy: the pipe's chunk they came in is not held, nor changed under them.
  bytes.fill(0);
  assert.equal(textOf(read.dump), JSON.stringify(value.dump));
  // A byte that is not UTF-8 in the id: the line reads it as U+FFFD, and the dump is kept as it was written.
  const broken = Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xff]), Buffer.from(line.slice(line.indexOf('","dump"')))]);
  const fromBroken = readAnswerLine(broken);
  assert.equal((fromBroken.value as { id: string }).id, '\ufffd');
  assert.equal(textOf(fromBroken.dump), JSON.stringify(value.dump));
  // One in the dump: the kept text is what was read, U+FFFD and all.
  const at = line.indexOf('"engine_version":"') + '"engine_version":"'.length;
  const inDump = Buffer.concat([Buffer.from(line.slice(0, at)), Buffer.from([0xff]), Buffer.from(line.slice(at))]);
  const fromInDump = readAnswerLine(inDump);
  assert.deepEqual(fromInDump.value, JSON.parse(inDump.toString('utf8')));
  assert.match(textOf(fromInDump.dump)!, /"engine_version":"\ufffd/);
  assert.equal(textOf(fromInDump.dump), JSON.stringify((fromInDump.value as { dump: unknown }).dump));
});
