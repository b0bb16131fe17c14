// CSS deletions, through postcss: whole rules (and at-rules, level by level: a rule inside
// @media is one level below it), then single declarations, both in `<style>` sheets and in
// inline `style` attributes. postcss keeps every byte of formatting in its tree (its printed
// root equals its input), so a trial differs from the case only by the deleted nodes; css-tree
// would print its own normalized CSS instead. A sheet or attribute postcss cannot parse, or
// would not print back unchanged, is left alone.
import { parse, type ChildNode, type Container, type Root } from 'postcss';
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { isElement, walk, type HtmlDoc } from '../html-case.js';
import type { Pass } from '../pass.js';

interface CssUnit {
  node: ChildNode;
  /** Writes the edited CSS back where it came from. */
  commit: () => void;
}

interface CssSource {
  root: Root;
  commit: () => void;
  inline: boolean;
}

function parseCss(text: string): Root | undefined {
  try {
    const root = parse(text);
    return root.toString() === text ? root : undefined;
  } catch {
    return undefined; // not CSS postcss can edit: kept verbatim
  }
}

/** Every sheet and inline style of the document, in document order, parsed afresh. */
function cssSources(d: HtmlDoc): CssSource[] {
  const sources: CssSource[] = [];
  walk(d.doc, (n) => {
    if (!isElement(n)) return;
    const style = n.attrs.find((a) => a.name === 'style' && !a.namespace);
    const inline = style && parseCss(style.value);
    if (style && inline) sources.push({ root: inline, inline: true, commit: () => (style.value = inline.toString()) });
    const text = n.tagName === 'style' && n.childNodes.length === 1 ? (n.childNodes[0] as T.TextNode) : undefined;
    const sheet = text?.nodeName === '#text' ? parseCss(text.value) : undefined;
    if (text && sheet) sources.push({ root: sheet, inline: false, commit: () => (text.value = sheet.toString()) });
  });
  return sources;
}

/** The rule-like children (everything but declarations) of `container`, `level` levels down. */
function rulesAt(container: Container, level: number): ChildNode[] {
  const here = (container.nodes ?? []).filter((n) => n.type !== 'decl');
  if (level === 0) return here;
  return here.flatMap((n) => ('nodes' in n && n.nodes ? rulesAt(n as Container, level - 1) : []));
}

function removeCss(_d: HtmlDoc, units: readonly CssUnit[]): void {
  for (const u of units) u.node.remove();
  for (const commit of new Set(units.map((u) => u.commit))) commit();
}

/** Deletes rules, at-rules and comments of `<style>` sheets, outermost level first. */
export const cssRules: Pass<HtmlDoc, CssUnit> = {
  name: 'css-rules',
  hierarchical: true,
  collect: (d, level) =>
    cssSources(d)
      .filter((s) => !s.inline)
      .flatMap((s) => rulesAt(s.root, level).map((node) => ({ node, commit: s.commit }))),
  remove: removeCss,
};

/** Deletes single declarations, in sheets and inline styles alike. */
export const cssDeclarations: Pass<HtmlDoc, CssUnit> = {
  name: 'css-declarations',
  hierarchical: false,
  collect(d) {
    const units: CssUnit[] = [];
    for (const s of cssSources(d)) s.root.walkDecls((node) => void units.push({ node, commit: s.commit }));
    return units;
  },
  remove: removeCss,
};
