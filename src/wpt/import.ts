// The importer over a checkout: every test under the paths asked for, each converted to a trace
// request or refused with its reason, in a stable order (paths as given, each folder's files in
// code-unit order), and the counts a summary gives.
import type { Checkout } from './checkout.js';
import { convertTest, type Converted } from './convert.js';
import { Refusal, REFUSAL_REASONS, type RefusalReason } from './refusal.js';
import { testKindOf, xmlTest } from './test-kind.js';

export type Imported = { path: string; converted: Converted } | { path: string; refused: Refusal };

/**
 * Every test under `paths` (paths in the checkout: files or folders, '' for all of it). A file
 * named by itself that is not a test is refused as `not_a_test`; in a folder, it is skipped.
 */
export function* importTests(checkout: Checkout, paths: readonly string[]): Generator<Imported> {
  const done = new Set<string>();
  for (const path of paths) {
    const named = !checkout.isFolder(path);
    for (const file of named ? [path] : checkout.files(path)) {
      if (done.has(file)) continue;
      done.add(file);
      const imported = importOne(checkout, file);
      if (imported) yield imported;
      else if (named)
        yield { path: file, refused: new Refusal('not_a_test', 'not a test by its name or place (a support file, a reference, …)') };
    }
  }
}

function importOne(checkout: Checkout, path: string): Imported | null {
  try {
    const kind = testKindOf(path);
    if (kind === null) return null;
    if (kind === 'xml') return xmlTest(path, checkout.read(path)!);
    return { path, converted: convertTest(checkout, path, kind) };
  } catch (error) {
    if (error instanceof Refusal) return { path, refused: error };
    throw error;
  }
}

/** What an import did, counted. */
export class ImportSummary {
  tests = 0;
  converted = 0;
  /** Converted with the main script moved to the request's `script`. */
  moved = 0;
  readonly refused = new Map<RefusalReason, number>();

  add(imported: Imported): void {
    this.tests++;
    if ('converted' in imported) {
      this.converted++;
      if (imported.converted.moved === true) this.moved++;
    } else this.refused.set(imported.refused.reason, (this.refused.get(imported.refused.reason) ?? 0) + 1);
  }

  /** One line: `12 tests: 7 converted (5 with their main script in "script"), 5 refused (1 server_side, …)`. */
  toString(): string {
    const refused = this.tests - this.converted;
    const reasons = REFUSAL_REASONS.filter((r) => this.refused.has(r)).map((r) => `${this.refused.get(r)} ${r}`);
    return (
      `${this.tests} test(s): ${this.converted} converted (${this.moved} with their main script in "script"), ` +
      `${refused} refused${reasons.length ? ` (${reasons.join(', ')})` : ''}`
    );
  }
}
