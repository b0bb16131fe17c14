// The square font set as fontconfig sees it, queried with fc-match the way an engine started
// with FONTCONFIG_FILE would: built into a scratch directory, from the checked-in rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fontconfigFile, squareFontconfigDir, writeSquareFonts } from '../../src/fonts/build-square-fonts.js';
import { FONT_SETS, SQUARE_RULES_FILE } from '../../src/fonts/font-sets.js';
import { SQUARE_FACES, SQUARE_FAMILY, squareFaceFile } from '../../src/fonts/square-faces.js';

const scratch = mkdtempSync(`${tmpdir()}/square-fontconfig-`);
const fontDir = `${scratch}/fonts`;
const firstBuild = await writeSquareFonts(fontDir);
const squareConf = `${fontDir}/fonts.conf`;
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/** fc-match's answer for `pattern`, formatted; run from the scratch directory, with a private cache. */
function fcMatch(conf: string, pattern: string, format = '%{family}|%{style}|%{file}'): string {
  return fontconfigTool(conf, 'fc-match', ['-f', format, pattern]);
}

function fontconfigTool(conf: string, tool: string, args: string[]): string {
  return execFileSync(tool, args, {
    cwd: scratch,
    env: { PATH: process.env.PATH, FONTCONFIG_FILE: conf, XDG_CACHE_HOME: `${scratch}/cache` },
    encoding: 'utf8',
  });
}

const faceFile = (style: string) => `${fontDir}/${squareFaceFile(SQUARE_FACES.find((face) => face.style === style)!)}`;

test('the first build writes every face and the fontconfig file', () => {
  assert.deepEqual(firstBuild.sort(), [...SQUARE_FACES.map((face) => `${fontDir}/${squareFaceFile(face)}`), squareConf].sort());
});

test('generic, named, installed-elsewhere and unknown families all resolve to the square font', () => {
  const families = [
    'serif',
    'sans-serif',
    'monospace',
    'cursive',
    'fantasy',
    'system-ui',
    'Arial',
    'Helvetica',
    'Times New Roman',
    'Courier New',
    'Liberation Serif',
    'DejaVu Sans',
    'Whatever Unknown',
  ];
  for (const family of families) {
    assert.equal(fcMatch(squareConf, family), `${SQUARE_FAMILY}|Regular|${faceFile('Regular')}`, family);
  }
});

test('every family is substituted strongly and first, as Blink, WebKit and Gecko require to accept it', () => {
  for (const family of ['serif', 'Arial', 'Whatever Unknown']) {
    const pattern = fontconfigTool(squareConf, 'fc-pattern', ['-c', family, 'family']);
    assert.match(pattern, new RegExp(`family: "${SQUARE_FAMILY}"\\(s\\) "${family}"`), pattern);
  }
});

test('bold and italic requests get the matching face, never a synthesized one', () => {
  for (const [pattern, style] of [
    ['serif:bold', 'Bold'],
    ['sans-serif:italic', 'Italic'],
    ['Arial:bold:italic', 'Bold Italic'],
    ['monospace:weight=900', 'Bold'],
  ] as const) {
    assert.equal(fcMatch(squareConf, pattern, '%{style}|%{file}'), `${style}|${faceFile(style)}`, pattern);
  }
});

test('the set holds the four square faces and no other font on the machine', () => {
  const files = fontconfigTool(squareConf, 'fc-list', ['-f', '%{file}\n']).trim().split('\n').sort();
  assert.deepEqual(files, SQUARE_FACES.map((face) => `${fontDir}/${squareFaceFile(face)}`).sort());
});

test('hinting, hint style, antialiasing and subpixel order are those of the Liberation set', () => {
  const rendering = '%{hinting} %{hintstyle} %{antialias} %{rgba}';
  assert.equal(fcMatch(squareConf, 'serif', rendering), 'False 0 True 5');
  assert.equal(fcMatch(FONT_SETS.liberation.fontconfigFile, 'serif', rendering), fcMatch(squareConf, 'serif', rendering));
});

test('a second build writes nothing; a fontconfig file from another checkout is rewritten alone', async () => {
  assert.deepEqual(await writeSquareFonts(fontDir), []);
  writeFileSync(squareConf, readFileSync(squareConf, 'utf8').replaceAll(fontDir, '/elsewhere/fonts'));
  assert.deepEqual(await writeSquareFonts(fontDir), [squareConf]);
  assert.equal(fcMatch(squareConf, 'serif', '%{file}'), faceFile('Regular'));
});

test('a package installed away from where it was built gets a fontconfig file naming where it is', () => {
  const installed = `${scratch}/installed`;
  mkdirSync(installed);
  for (const face of SQUARE_FACES) copyFileSync(`${fontDir}/${squareFaceFile(face)}`, `${installed}/${squareFaceFile(face)}`);
  // The shipped file still names the folder it was built in.
  copyFileSync(squareConf, `${installed}/fonts.conf`);
  const dir = squareFontconfigDir(installed, SQUARE_RULES_FILE);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  assert.notEqual(dir, installed);
  assert.equal(readFileSync(`${dir}/fonts.conf`, 'utf8'), fontconfigFile(installed, SQUARE_RULES_FILE));
  assert.match(fcMatch(`${dir}/fonts.conf`, 'serif'), new RegExp(`^${SQUARE_FAMILY}\\|Regular\\|${installed}/`));
  assert.equal(squareFontconfigDir(installed, SQUARE_RULES_FILE), dir, 'the same installation gets the same folder');
  assert.equal(squareFontconfigDir(fontDir, SQUARE_RULES_FILE), fontDir, 'a folder whose file names it is used as it is');
});
