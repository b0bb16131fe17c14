// The plain-text boundary: strings that came from a candidate or a corpus (names, versions,
// signatures, ids) reach a table or the log as escapes of whatever would not show as itself, so a
// newline forges no row and an escape sequence never reaches the terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSummary, summarize, summarizeCandidate } from '../../src/campaign/journal/summary.js';
import { logLines } from '../../src/system/log.js';
import { visible } from '../../src/system/visible-text.js';

/** Text a hostile candidate or corpus could hold: line breaks, escape sequences, C1 controls, bidirectional overrides, a lone surrogate. */
const HOSTILE = 'a\nb\r\u001b[2J\u001b]0;t\u0007\u0000\u007f\u009b31m\u0085\u2028\u202eevil\u2066\ud800z';

test('what would not show as itself is written as an escape; the rest is kept, and a long text is cut', () => {
  assert.equal(visible(HOSTILE), 'a\\nb\\r\\x1b[2J\\x1b]0;t\\x07\\x00\\x7f\\x9b31m\\x85\\u2028\\u202eevil\\u2066\\ud800z');
  assert.equal(visible('plain text, café, 𝑥, 日本, tab-free'), 'plain text, café, 𝑥, 日本, tab-free');
  assert.equal(visible('x'.repeat(50), 10), `${'x'.repeat(10)}… (40 more characters)`);
});

test('a log line keeps no control character, whoever wrote it; a message of several lines stays prefixed', () => {
  const lines = logLines('info', `one\ntwo ${HOSTILE}`).split('\n').slice(0, -1);
  assert.equal(lines.length, 3, 'the message’s own newlines still make lines, each prefixed');
  for (const line of lines) {
    assert.match(line, /^browser-oracle: info: /);
    assert.equal(visible(line), line);
  }
});

test("the summary's text shows a candidate's name, version and signatures and a corpus's ids without acting on them", () => {
  const summary = summarize([{ verdict: 'outlier', outlier: 'webkit', count: 1 }], 0, [
    { signature: `outlier webkit | size | ${HOSTILE} | width`, count: 1, example: HOSTILE },
  ]);
  summary.candidate = summarizeCandidate(
    { name: `evil\n    9  forged row`, version: '1\u001b[31m' },
    [{ verdict: 'error', count: 1, sidesWithOutlier: 0, subpixel: 0 }],
    [{ signature: `candidate evil\n    9  forged row | error | x`, count: 1, example: `case\u001b[1A` }],
  );
  const text = renderSummary(summary, `report\n.html`);
  const lines = text.split('\n').slice(0, -1);
  // The counts, a table of one finding, the candidate's line, a table of one finding, the report.
  assert.equal(lines.length, 1 + 2 + 1 + 2 + 1, text);
  for (const line of lines) assert.equal(visible(line), line);
  assert.match(lines[3]!, /^candidate evil\\n {4}9 {2}forged row \(1\\x1b\[31m\), 1 layout cases/);
  assert.ok(!lines.some((l) => /^\s+9\s+forged/.test(l)), 'no row is forged');
});
