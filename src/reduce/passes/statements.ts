// Statement deletions in the request's `script`, through acorn: top-level statements first,
// then, level by level, the statements inside blocks (function bodies, if/loop blocks, switch
// cases, class static blocks). Only members of statement lists are deleted, so the rest still
// parses. A script acorn cannot parse is left alone.
import { parse, type Node, type Program } from 'acorn';
import type { Pass, Subject } from '../pass.js';
import { spliceOut, type Range } from '../splice.js';

/** A parsed script and the ranges deleted from it so far. */
export interface ScriptDoc {
  readonly text: string;
  readonly program: Program;
  readonly removed: Range[];
}

/** Parses and prints the `script` field. */
export const scriptSubject: Subject<ScriptDoc> = {
  parse(text) {
    try {
      return { text, program: parse(text, { ecmaVersion: 'latest', sourceType: 'script' }), removed: [] };
    } catch {
      return undefined; // not a script acorn can parse: kept verbatim
    }
  },
  print: (s) => spliceOut(s.text, s.removed),
};

/** The statement lists a node owns (where deleting a member keeps the syntax valid). */
function statementLists(node: Node): Node[][] {
  const n = node as Node & { body?: unknown; consequent?: unknown };
  if (node.type === 'Program' || node.type === 'BlockStatement' || node.type === 'StaticBlock') return [n.body as Node[]];
  if (node.type === 'SwitchCase') return [n.consequent as Node[]];
  return [];
}

/** The AST nodes directly below `node`, whatever the field holding them. */
function childNodes(node: Node): Node[] {
  const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';
  return Object.values(node).flatMap((v) => (Array.isArray(v) ? v.filter(isNode) : isNode(v) ? [v] : []));
}

/** The statements nested in `level` enclosing statement lists below the top one. */
function statementsAt(node: Node, level: number): Node[] {
  const lists = statementLists(node);
  if (lists.length > 0) {
    const members = lists.flat();
    return level === 0 ? members : members.flatMap((m) => statementsAt(m, level - 1));
  }
  return childNodes(node).flatMap((c) => statementsAt(c, level));
}

/** A statement's range, widened to its whole line when it stands alone on it. */
function lineRange(text: string, node: Node): Range {
  let end = node.end;
  while (text[end] === ' ' || text[end] === '\t') end++;
  if (text[end] === '\r') end++;
  if (text[end] !== '\n') return [node.start, node.end];
  let start = node.start;
  while (text[start - 1] === ' ' || text[start - 1] === '\t') start--;
  return start === 0 || text[start - 1] === '\n' ? [start, end + 1] : [node.start, end + 1];
}

/** Deletes statements, outermost first. */
export const statements: Pass<ScriptDoc, Node> = {
  name: 'statements',
  hierarchical: true,
  collect: (s, level) => statementsAt(s.program, level),
  remove: (s, units) => void s.removed.push(...units.map((u) => lineRange(s.text, u))),
};
