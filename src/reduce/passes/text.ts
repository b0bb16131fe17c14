// Text deletions: whole text nodes and comments first, then single words of the text that is
// left. The contents of `<style>` and `<script>` are not text here: CSS has its own passes,
// and an inline script is kept or dropped with its element.
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { detach, walk, type HtmlDoc } from '../html-case.js';
import type { Pass } from '../pass.js';
import { spliceOut, type Range } from '../splice.js';

const NOT_TEXT = new Set(['style', 'script']);

function textLike(d: HtmlDoc): (T.TextNode | T.CommentNode)[] {
  const found: (T.TextNode | T.CommentNode)[] = [];
  walk(d.doc, (n) => {
    if (n.nodeName !== '#text' && n.nodeName !== '#comment') return;
    const parent = n.parentNode;
    if (parent && 'tagName' in parent && NOT_TEXT.has(parent.tagName)) return;
    found.push(n as T.TextNode | T.CommentNode);
  });
  return found;
}

/** Deletes text nodes and comments. */
export const textNodes: Pass<HtmlDoc, T.TextNode | T.CommentNode> = {
  name: 'text',
  hierarchical: false,
  collect: textLike,
  remove: (_d, units) => units.forEach(detach),
};

interface WordUnit {
  node: T.TextNode;
  /** The word with the whitespace before it (after it, for a first word). */
  range: Range;
}

/** The words of `text` as deletion ranges; none when there is only one word. */
function wordRanges(text: string): Range[] {
  const words = [...text.matchAll(/\S+/g)].map((m): Range => [m.index, m.index + m[0].length]);
  if (words.length < 2) return [];
  return words.map(([start, end], i) => (i === 0 ? [start, words[1]![0]] : [words[i - 1]![1], end]));
}

/** Deletes words inside the text nodes that hold more than one. */
export const words: Pass<HtmlDoc, WordUnit> = {
  name: 'words',
  hierarchical: false,
  collect: (d) =>
    textLike(d)
      .filter((n): n is T.TextNode => n.nodeName === '#text')
      .flatMap((node) => wordRanges(node.value).map((range) => ({ node, range }))),
  remove(_d, units) {
    const byNode = new Map<T.TextNode, Range[]>();
    for (const u of units) byNode.set(u.node, [...(byNode.get(u.node) ?? []), u.range]);
    for (const [node, ranges] of byNode) node.value = spliceOut(node.value, ranges);
  },
};
