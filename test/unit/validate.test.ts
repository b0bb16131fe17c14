// Request validation against names that every object inherits: an op (or any key read off the
// wire) that names a property of Object.prototype is an unknown op, never a lookup that finds
// the prototype's member.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRequest, parseRequestLine } from '../../src/protocol/validate.js';

const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

for (const op of INHERITED) {
  test(`op ${JSON.stringify(op)} is an unknown op, answered with an error line`, () => {
    const parsed = parseRequestLine(JSON.stringify({ id: 'a', op }));
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.equal(parsed.id, 'a');
    assert.ok(
      parsed.error.wireText.startsWith(`invalid_request: field "op": unknown op ${JSON.stringify(op)} (known: `),
      parsed.error.wireText,
    );
  });
}

test('an op named "geometry" is refused: the geometry request is the one without op', () => {
  const parsed = checkRequest({ id: 'g', op: 'geometry', html: '' });
  assert.equal(parsed.ok, false);
  assert.match(!parsed.ok ? parsed.error.wireText : '', /field "op": unknown op "geometry"/);
});

test('a request whose own __proto__ key is set still validates by its fields alone', () => {
  // JSON.parse makes "__proto__" an own property, which the strict schema refuses as unknown.
  const parsed = parseRequestLine('{"id":"a","html":"x","__proto__":{"op":"ping"}}');
  assert.equal(parsed.ok, false);
  assert.match(!parsed.ok ? parsed.error.wireText : '', /field "__proto__": unknown field/);
});
