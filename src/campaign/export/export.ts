// `export`: findings written as tests in another suite's format (wpt.ts, taffy.ts, yoga.ts).
// Everything is made in memory first, then each file is written whole (to a temporary name, then
// renamed), so a failure never leaves a file half written.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Journal } from '../journal/journal.js';
import { selectFindings, type Finding, type Refused, type Selection } from './finding.js';

export const EXPORT_FORMATS = ['wpt', 'taffy', 'yoga'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface Exported {
  /** File name (in the output folder) → its text. */
  files: [string, string][];
  /** The cases written, by id. */
  written: string[];
  refused: Refused[];
}

/** The files of the selected findings in `format`. The format's module is loaded only when asked (Yoga's and Taffy's engines load with it). */
export async function exportFindings(journal: Journal, format: ExportFormat, selection: Selection): Promise<Exported> {
  const findings = selectFindings(journal, selection);
  const out: Exported = { files: [], written: [], refused: findings.filter((f): f is Refused => 'why' in f) };
  const names = new UniqueNames();
  const found = findings.filter((f): f is Finding => !('why' in f));
  const refuse = (f: Finding, why: string) => out.refused.push({ id: f.id, why });
  if (format === 'wpt') {
    const { wptTest } = await import('./wpt.js');
    for (const f of found) {
      const test = wptTest(f);
      if ('refused' in test) refuse(f, test.refused);
      else {
        out.files.push([`${names.take(slug(f.id, /[^A-Za-z0-9_.-]+/g, '-').replace(/\.html?$/, ''))}.html`, test.text]);
        out.written.push(f.id);
      }
    }
  } else if (format === 'taffy') {
    const { taffyTests } = await import('./taffy.js');
    for (const f of found) {
      const tests = taffyTests(f, names.take(snake(f.id)));
      if ('refused' in tests) refuse(f, tests.refused);
      else {
        out.files.push(...tests.files);
        out.written.push(f.id);
      }
    }
  } else {
    const { yogaFiles, yogaTests } = await import('./yoga.js');
    const all = [];
    for (const f of found) {
      const tests = yogaTests(f, names.take(snake(f.id)));
      if ('refused' in tests) refuse(f, tests.refused);
      else {
        all.push(...tests.tests);
        out.written.push(f.id);
      }
    }
    if (all.length) out.files.push(...yogaFiles(all));
  }
  return out;
}

/** Writes each file whole into `dir` (created when missing); returns their paths. */
export function writeFiles(dir: string, files: [string, string][]): string[] {
  mkdirSync(dir, { recursive: true });
  return files.map(([name, text]) => {
    const path = join(dir, name);
    const temporary = join(dir, `.${name}.${process.pid}.tmp`);
    writeFileSync(temporary, text);
    renameSync(temporary, path);
    return path;
  });
}

const slug = (id: string, unsafe: RegExp, by: string) =>
  id.replace(unsafe, by).replace(new RegExp(`^[${by}.]+|[${by}]+$`, 'g'), '') || 'case';

/** A test name a Rust or JavaScript identifier can be: lower case, digits and underscores, not starting with a digit. */
const snake = (id: string) => {
  const name = slug(id.toLowerCase().replace(/\.html?$/, ''), /[^a-z0-9]+/g, '_');
  return /^[0-9]/.test(name) ? `case_${name}` : name;
};

/** Names made unique by a counter: two cases of one id, or two ids made one name. */
class UniqueNames {
  private readonly taken = new Set<string>();

  take(name: string): string {
    let unique = name;
    for (let n = 2; this.taken.has(unique); n++) unique = `${name}_${n}`;
    this.taken.add(unique);
    return unique;
  }
}
