// Where each font set's files are. An engine launched with a set gets FONTCONFIG_FILE set to
// its `fontconfigFile`, so it sees those fonts and nothing else the machine has installed.
// Both the coordinator and the workers need this, so it depends on neither.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FontSetName } from '../protocol/font-sets.js';
import { SQUARE_FACES, squareFaceFile } from './square-faces.js';

/** The package root, from either src/ (tsc output lives in dist/src/). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Where `npm run build` writes the square font and its fontconfig file (gitignored). */
export const SQUARE_FONT_DIR = `${ROOT}dist/fonts`;
/** The checked-in rules the generated square fontconfig file includes. */
export const SQUARE_RULES_FILE = `${ROOT}config/fonts-square.conf`;

export interface FontSet {
  name: FontSetName;
  /** What FONTCONFIG_FILE is set to for every engine launched with this set. */
  fontconfigFile: string;
  /** The folders holding its fonts, which an engine that sandboxes its content processes must let them read. */
  dirs: readonly string[];
  /** Files that must exist for the set to work. */
  files: readonly string[];
  /** What provides them, for the message when one is missing. */
  install: string;
}

const LIBERATION_DIR = '/usr/share/fonts/truetype/liberation2';

/** Every font set by name. */
export const FONT_SETS: Readonly<Record<FontSetName, FontSet>> = {
  liberation: {
    name: 'liberation',
    fontconfigFile: `${ROOT}config/fonts.conf`,
    dirs: [LIBERATION_DIR],
    files: ['Serif', 'Sans', 'Mono'].map((kind) => `${LIBERATION_DIR}/Liberation${kind}-Regular.ttf`),
    install: 'npm run setup (it installs the Debian package fonts-liberation2)',
  },
  square: {
    name: 'square',
    fontconfigFile: `${SQUARE_FONT_DIR}/fonts.conf`,
    dirs: [SQUARE_FONT_DIR],
    files: [...SQUARE_FACES.map((face) => `${SQUARE_FONT_DIR}/${squareFaceFile(face)}`), `${SQUARE_FONT_DIR}/fonts.conf`],
    install: 'npm run build (it generates the square font)',
  },
};

/** A one-line message naming what the set lacks and how to get it, or undefined when it is complete. */
export function fontSetProblem(set: FontSet): string | undefined {
  const missing = set.files.find((file) => !existsSync(file));
  return missing === undefined ? undefined : `--fonts=${set.name}: ${missing} is missing; run ${set.install}`;
}
