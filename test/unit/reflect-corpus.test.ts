// The shipped reflection corpus, read without an engine: every line is a valid reflect request.
// Running it through the engines is test/e2e/reflect-corpus.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CORPUS, readCorpus } from '../../src/tools/reflect-corpus/session.js';

test('the corpus holds at least 20 valid reflect cases', () => {
  assert.ok(readCorpus(DEFAULT_CORPUS).length >= 20);
});
