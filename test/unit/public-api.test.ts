// The public API is the explicit list in src/index.ts, and docs/api.md describes every name on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const REPO = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, REPO), 'utf8');

/** Every name src/index.ts exports, and whether it re-exports a whole module. */
function entryExports(): { names: string[]; wholesale: string[] } {
  const source = ts.createSourceFile('index.ts', read('src/index.ts'), ts.ScriptTarget.ES2022);
  const names: string[] = [];
  const wholesale: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const from = statement.moduleSpecifier?.getText(source) ?? '';
    if (statement.exportClause === undefined || ts.isNamespaceExport(statement.exportClause)) wholesale.push(from);
    else names.push(...statement.exportClause.elements.map((e) => e.name.text));
  }
  return { names, wholesale };
}

test('src/index.ts names each export: no module is re-exported wholesale', () => {
  const { names, wholesale } = entryExports();
  assert.deepEqual(wholesale, []);
  assert.ok(names.includes('Oracle') && names.includes('vote'), names.join(', '));
});

test('docs/api.md describes every name the package exports', () => {
  const doc = read('docs/api.md');
  const missing = entryExports().names.filter((name) => !new RegExp(`\`${name}\\b[^\`]*\``).test(doc));
  assert.deepEqual(missing, []);
});
