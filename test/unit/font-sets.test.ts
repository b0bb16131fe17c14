// The font sets the lead wires to --fonts: one per name, each naming its fontconfig file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { FONT_SET_NAMES } from '../../src/protocol/font-sets.js';
import { FONT_SETS, fontSetProblem, SQUARE_FONT_DIR, SQUARE_RULES_FILE } from '../../src/fonts/font-sets.js';

test('every font set name has a set, named after it, with an absolute fontconfig file among its required files or checked in', () => {
  assert.deepEqual(Object.keys(FONT_SETS).sort(), [...FONT_SET_NAMES].sort());
  for (const name of FONT_SET_NAMES) {
    const set = FONT_SETS[name];
    assert.equal(set.name, name);
    assert.ok(set.fontconfigFile.startsWith('/'), set.fontconfigFile);
    assert.ok(set.files.includes(set.fontconfigFile) || existsSync(set.fontconfigFile), `${name}: ${set.fontconfigFile}`);
  }
});

test('the square set is generated under dist/fonts and its rules are checked in under config/', () => {
  assert.match(FONT_SETS.square.fontconfigFile, /\/dist\/fonts\/fonts\.conf$/);
  assert.ok(FONT_SETS.square.files.every((file) => file.startsWith(`${SQUARE_FONT_DIR}/`)));
  assert.ok(existsSync(SQUARE_RULES_FILE), SQUARE_RULES_FILE);
});

test('a set lacking a file is named in a one-line message that says how to get it; a complete set has no problem', () => {
  const present = SQUARE_RULES_FILE;
  const absent = `${SQUARE_FONT_DIR}/no-such-face.otf`;
  const set = { ...FONT_SETS.square, files: [present, absent] };
  assert.equal(fontSetProblem(set), `--fonts=square: ${absent} is missing; run npm run build (it generates the square font)`);
  assert.equal(fontSetProblem({ ...set, files: [present] }), undefined);
});
