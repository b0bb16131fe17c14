// A request's `site` (src/protocol/site-schema.ts): its limits are checked at validation, each
// refusal naming the field to fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRequest } from '../../src/protocol/validate.js';

const refusal = (value: unknown) => {
  const parsed = checkRequest(value);
  return parsed.ok ? 'accepted' : parsed.error.wireText;
};

const page = { path: 'css/x/t.html', files: { 'fonts/ahem.css': '@font-face{}', 'css/x/support/a.png': { base64: 'iVBORw0KGgo=' } } };

test('a site with text and binary files is a valid vote, geometry and screenshot request, with either wait', () => {
  assert.equal(refusal({ id: 'a', op: 'vote', html: '<p>', site: page, wait: 'testharness' }), 'accepted');
  assert.equal(refusal({ id: 'a', html: '<p>', site: page, wait: 'reftest-wait' }), 'accepted');
  assert.equal(refusal({ id: 'a', op: 'screenshot', html: '<p>', site: page }), 'accepted');
  assert.equal(refusal({ id: 'a', op: 'trace', script: '', site: page }), 'accepted');
});

test('a wait other than the two is refused, naming the values', () => {
  assert.match(
    refusal({ id: 'a', html: '', wait: 'load' }),
    /^invalid_request: field "wait": must be one of "testharness", "reftest-wait"/,
  );
});

test('a key that climbs, starts with a slash or hides is refused', () => {
  for (const key of ['../x.css', '/fonts/ahem.css', 'a/.hidden', 'a//b', 'a/./b']) {
    assert.match(
      refusal({ id: 'a', html: '', site: { path: 'p.html', files: { [key]: '' } } }),
      /^invalid_request: field "site\.files/,
      key,
    );
  }
  assert.match(refusal({ id: 'a', html: '', site: { path: '../p.html', files: {} } }), /^invalid_request: field "site\.path"/);
});

test('the page itself among the files is refused', () => {
  assert.match(refusal({ id: 'a', html: '', site: { path: 'p.html', files: { 'p.html': '' } } }), /field "site\.path": must not be a key/);
});

test('more than 256 files, or more than 16 MiB decoded, is refused', () => {
  const many = Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`f${i}.css`, '']));
  assert.match(refusal({ id: 'a', html: '', site: { path: 'p.html', files: many } }), /^invalid_request: field "site\.files": /);
  const big = 'x'.repeat(8 * 1024 * 1024 + 1);
  assert.match(
    refusal({ id: 'a', html: '', site: { path: 'p.html', files: { 'a.css': big, 'b.css': big } } }),
    /field "site\.files": decodes to 16777218 bytes, more than 16777216/,
  );
  const base64 = 'A'.repeat((16 * 1024 * 1024 * 4) / 3 + 4);
  assert.match(
    refusal({ id: 'a', html: '', site: { path: 'p.html', files: { 'a.ttf': { base64 } } } }),
    /field "site\.files": decodes to 1677721\d bytes/,
  );
  assert.equal(refusal({ id: 'a', html: '', site: { path: 'p.html', files: { 'a.css': big } } }), 'accepted');
});

test('a binary file that is not base64 is refused', () => {
  assert.match(refusal({ id: 'a', html: '', site: { path: 'p.html', files: { 'a.ttf': { base64: 'a b' } } } }), /field "site\.files/);
});

test('a trace takes files or site, not both', () => {
  assert.match(
    refusal({ id: 'a', op: 'trace', script: '', files: { 'a.js': '' }, site: page }),
    /^invalid_request: field "files": a trace takes "files" or "site", not both/,
  );
});
