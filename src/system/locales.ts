// The C library's locale for the language every engine runs in (--locale). WebKitGTK takes
// navigator.language and its Intl default from setlocale(): under LANG=C.UTF-8 it said "C", and
// under a locale the C library does not have, "en-US" whatever was asked (measured on WebKitGTK
// 2.50). Debian ships the sources of every locale (package `locales`) and compiles only those the
// administrator chose, often none; so the oracle compiles the one it needs with localedef into a
// folder of its own, which every engine is pointed at (LOCPATH), once per machine and user.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ConfigError, firstLine } from '../protocol/errors.js';

const run = promisify(execFile);

/** Where Debian's `locales` package keeps the locale sources. */
const SOURCES = '/usr/share/i18n/locales';

export interface CLocale {
  /** The locale's name for LANG and LC_ALL: en_US.UTF-8. */
  name: string;
  /** The folder it is compiled in, for LOCPATH. */
  dir: string;
}

/** The C library's name of `tag` (language-REGION): en-US is en_US.UTF-8. */
export const cLocaleName = (tag: string): string => `${tag.replace('-', '_')}.UTF-8`;

/** `tag` (language-REGION, as --locale takes it) compiled for the C library, or a ConfigError saying why it cannot be. */
export async function compiledLocale(tag: string, cacheDir = localeCacheDir()): Promise<CLocale> {
  const source = tag.replace('-', '_');
  const name = cLocaleName(tag);
  const target = join(cacheDir, name);
  // LC_CTYPE is the part the engines read; a folder without it is one a compile left unfinished.
  if (existsSync(join(target, 'LC_CTYPE'))) return { name, dir: cacheDir };
  if (!existsSync(join(SOURCES, source)))
    throw new ConfigError(`--locale=${tag}: the C library has no locale ${source} (no ${join(SOURCES, source)}; apt-get install locales)`);
  await mkdir(cacheDir, { recursive: true });
  // Compiled beside its place and moved there whole, so an oracle starting at the same time never reads half of it.
  const scratch = await mkdtemp(join(cacheDir, `.${name}-`));
  try {
    await run('localedef', ['-i', source, '-f', 'UTF-8', join(scratch, name)]);
    await rename(join(scratch, name), target).catch((error: NodeJS.ErrnoException) => {
      // Another oracle finished first: its copy is as good.
      if (!existsSync(join(target, 'LC_CTYPE'))) throw error;
    });
  } catch (error) {
    throw new ConfigError(`--locale=${tag}: localedef could not compile ${name} (${firstLine(error)})`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { name, dir: cacheDir };
}

/** Where compiled locales are kept between runs: one folder per user. */
export function localeCacheDir(): string {
  return join(tmpdir(), `browser-oracle-locales-${userInfo().uid}`);
}
