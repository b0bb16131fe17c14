// Plain-function queries over a candidate's html, for the reducer's test predicates. They
// parse with parse5 and postcss like a browser would see the markup, never with the reducer's
// own helpers, so a predicate does not share a bug with what it checks.
import { parse, type DefaultTreeAdapterTypes as T } from 'parse5';
import postcss from 'postcss';

/** The page a candidate's html makes: body markup goes after `<!doctype html>`. */
export function dom(html: string, kind: 'document' | 'body' = 'document'): T.Document {
  return parse(kind === 'body' ? `<!doctype html>${html}` : html);
}

/** Every element of the page, in document order. */
export function elements(node: T.ParentNode): T.Element[] {
  const children = 'content' in node ? (node as T.Template).content.childNodes : node.childNodes;
  return children.flatMap((c) => ('tagName' in c ? [c, ...elements(c)] : []));
}

/** The value of attribute `name`, or undefined. */
export function attr(e: T.Element, name: string): string | undefined {
  return e.attrs.find((a) => a.name === name)?.value;
}

/** Whether `e`'s class attribute has `name`. */
export function hasClass(e: T.Element, name: string): boolean {
  return (attr(e, 'class') ?? '').split(/\s+/).includes(name);
}

/** Every text node of the page outside <style> and <script>. */
export function texts(node: T.ParentNode): string[] {
  return node.childNodes.flatMap((c) => {
    if (c.nodeName === '#text') return [(c as T.TextNode).value];
    if ('tagName' in c && c.tagName !== 'style' && c.tagName !== 'script') return texts(c);
    return [];
  });
}

/** The `display` declarations of `e`'s inline style. */
export function inlineDisplay(e: T.Element): string[] {
  const style = attr(e, 'style');
  if (style === undefined) return [];
  const values: string[] = [];
  postcss.parse(style).walkDecls('display', (d) => void values.push(d.value));
  return values;
}

/** The `display` values that `<style>` rules with exactly the selector `.name` set. */
export function sheetDisplay(doc: T.Document, name: string): string[] {
  const values: string[] = [];
  for (const style of elements(doc).filter((e) => e.tagName === 'style')) {
    const css = style.childNodes.map((c) => (c as T.TextNode).value ?? '').join('');
    postcss.parse(css).walkRules((rule) => {
      if (rule.selector === `.${name}` && rule.parent?.type === 'root') rule.walkDecls('display', (d) => void values.push(d.value));
    });
  }
  return values;
}

/** The text inside every `<style>` of the page. */
export function styleTexts(doc: T.Document): string[] {
  return elements(doc)
    .filter((e) => e.tagName === 'style')
    .map((e) => e.childNodes.map((c) => (c as T.TextNode).value ?? '').join(''));
}
