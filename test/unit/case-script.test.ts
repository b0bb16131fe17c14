// The case's script as the engines run it (discardingCompletion): the same classic script at
// global scope, whose completion value — which the driver would carry back — is undefined.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createContext, runInContext } from 'node:vm';
import { discardingCompletion } from '../../src/page/sources.js';

const run = (script: string) => {
  const context = createContext({});
  return { value: runInContext(discardingCompletion(script), context), context: context as Record<string, unknown> };
};

test('the completion value is undefined, whatever the last statement', () => {
  for (const script of ["globalThis.h = 'x'.repeat(1000)", "'a string'", '42', '({ a: 1 })', '', 'if (true) { 7 }']) {
    assert.equal(run(script).value, undefined, script);
  }
});

test('the script keeps its meaning: globals, a directive, a trailing line comment, an HTML-like comment', () => {
  assert.equal(run('var a = 1; function f() { return 2 }').context.a, 1);
  assert.equal(typeof run('function f() { return 2 }').context.f, 'function');
  // Errors are the context's own, so they are told by name.
  assert.throws(() => run("'use strict'; undeclared = 1"), { name: 'ReferenceError' }, 'the directive still applies');
  assert.equal(run('var b = 3 // the end').context.b, 3);
  assert.equal(run('var c = 4\n<!-- an HTML-like comment').context.c, 4);
});

test('a script that does not parse still does not', () => {
  for (const script of ['a +', '/* open', 'function (', '`open']) assert.throws(() => run(script), { name: 'SyntaxError' }, script);
});
