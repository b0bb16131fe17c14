// The importer over a checkout: every test under the paths asked for, each converted to a trace
// request or refused with its reason, in a stable order (paths as given, each folder's files in
// code-unit order), and the counts a summary gives.
import type { Checkout } from './checkout.js';
import { convertTest, type Converted } from './convert.js';
import { layoutCase, type LayoutCase } from './layout.js';
import { Refusal, REFUSAL_REASONS, type RefusalReason } from './refusal.js';
import { testKindOf, xmlTest } from './test-kind.js';

/** A test converted or refused; or (skipped) a link the walk did not follow, and why: not a test, and not counted as one. */
export type Imported =
  | { path: string; converted: Converted }
  | { path: string; layout: LayoutCase }
  | { path: string; refused: Refusal }
  | { path: string; skipped: string };

/**
 * Every test under `paths` (paths in the checkout: files or folders, '' for all of it). A file
 * named by itself that is not a test is refused as `not_a_test`; in a folder, it is skipped. What
 * a folder's walk cannot take (a name that is not UTF-8, a link out of the checkout…) is refused
 * in its place in the order.
 */
export function* importTests(checkout: Checkout, paths: readonly string[], { layout = false } = {}): Generator<Imported> {
  const done = new Set<string>();
  for (const path of paths) {
    const named = !checkout.isFolder(path);
    const { files, refused, skipped } = named ? { files: [path], refused: [], skipped: [] } : checkout.walk(path);
    const entries: Imported[] = [
      ...refused.map(({ path, refusal }) => ({ path, refused: refusal })),
      ...skipped.map(({ path, why }) => ({ path, skipped: why })),
    ];
    entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    let next = 0;
    for (const file of files) {
      for (; next < entries.length && entries[next]!.path < file; next++) yield entries[next]!;
      if (done.has(file)) continue;
      done.add(file);
      const imported = importOne(checkout, file, layout);
      if (imported) yield imported;
      else if (named)
        yield { path: file, refused: new Refusal('not_a_test', 'not a test by its name or place (a support file, a reference, …)') };
    }
    yield* entries.slice(next);
  }
}

function importOne(checkout: Checkout, path: string, layout: boolean): Imported | null {
  try {
    const kind = testKindOf(path);
    if (kind === null) return null;
    // The layout route: check-layout tests and reftest pages (layout.ts).
    if (layout) {
      const found = layoutCase(checkout, path, kind);
      return found && { path, layout: found };
    }
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
  /** Layout cases, by the kind of test they came from. */
  readonly layout = { 'check-layout': 0, reftest: 0 };
  readonly refused = new Map<RefusalReason, number>();
  /** Links not followed: not tests. */
  skipped = 0;

  add(imported: Imported): void {
    if ('skipped' in imported) {
      this.skipped++;
      return;
    }
    this.tests++;
    if ('converted' in imported) {
      this.converted++;
      if (imported.converted.moved === true) this.moved++;
    } else if ('layout' in imported) {
      this.converted++;
      this.layout[imported.layout.kind]++;
    } else this.refused.set(imported.refused.reason, (this.refused.get(imported.refused.reason) ?? 0) + 1);
  }

  /** One line: `12 tests: 7 converted (5 with their main script in "script"), 5 refused (1 server_side, …)`. */
  toString(): string {
    const refused = this.tests - this.converted;
    const reasons = REFUSAL_REASONS.filter((r) => this.refused.has(r)).map((r) => `${this.refused.get(r)} ${r}`);
    const how =
      this.layout['check-layout'] + this.layout.reftest
        ? `${this.layout['check-layout']} check-layout, ${this.layout.reftest} reftest page(s)`
        : `${this.moved} with their main script in "script"`;
    return (
      `${this.tests} test(s): ${this.converted} converted (${how}), ` +
      `${refused} refused${reasons.length ? ` (${reasons.join(', ')})` : ''}` +
      (this.skipped ? `; ${this.skipped} link(s) not followed` : '')
    );
  }
}
