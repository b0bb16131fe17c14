// `export --format wpt`: a finding as a web-platform-tests check-layout test. The case's own
// document, each element carrying the majority's layout as check-layout-th.js reads it
// (data-expected-width and -height against offsetWidth and offsetHeight, data-offset-x and -y
// against offsetLeft and offsetTop, each to within 1 px), the harness scripts in its head, and
// checkLayout() on load. It passes in the majority's engines and fails in the outlier wherever the
// outlier is a pixel or more away.
//
// offsetLeft and offsetTop are measured from the offsetParent's padding edge (CSSOM View): the
// nearest ancestor with a box that is positioned, is the body, or (for a static element) is a
// table cell or table; from the initial containing block when that is the body or there is none
// (a fixed box). What else makes a containing block (transforms, filters, containment) is not in
// a dump, so a case whose markup names such a property gets sizes only.
import { defaultTreeAdapter as tree, html as HTML, parse, serialize, type DefaultTreeAdapterTypes as T } from 'parse5';
import { aboutFinding, elementsOf, voteWords, type Finding } from './finding.js';
import { majorityLayout, px, type MajorityNode } from './majority.js';

/** What a case's markup may name that makes a containing block a dump does not show. */
const HIDDEN_CONTAINING_BLOCKS =
  /\b(transform|translate|rotate|scale|perspective|filter|backdrop-filter|contain|container-type|will-change|zoom)\s*:/i;
const HARNESS = ['/resources/testharness.js', '/resources/testharnessreport.js', '/resources/check-layout-th.js'];
/** The attribute every checked element carries, and so the selector checkLayout() is given. */
const CHECKED = 'data-expected-width';

/** The test's text, or why the case cannot be one. */
export function wptTest(f: Finding): { text: string } | { refused: string } {
  if (f.script !== null) return { refused: 'it has a script, and its boxes are of the document the script made' };
  const majority = majorityLayout(f);
  if (!majority) return { refused: `${voteWords(f.vote)}: no majority to take expectations from` };
  const doc = parse(f.html);
  const elements = elementsOf(doc);
  const nodes = majority.nodes;
  if (elements.length !== nodes.length || elements.some((e, i) => e.tagName.toLowerCase() !== nodes[i]!.tag.toLowerCase()))
    return { refused: 'its html does not parse to the elements the engines walked' };
  const own = elements.flatMap((e) => e.attrs.filter((a) => a.name.startsWith('data-') && !a.name.startsWith('data-test')));
  if (own.length) return { refused: `it has data-* attributes of its own (${own[0]!.name}), which check-layout-th.js refuses` };
  const offsets = !HIDDEN_CONTAINING_BLOCKS.test(f.html);
  let checked = 0;
  elements.forEach((element, i) => {
    const node = nodes[i]!;
    if (element.namespaceURI !== HTML.NS.HTML || node.first === null || node.tag === 'HTML' || inHead(nodes, i)) return;
    const attrs: [string, string][] = [
      [CHECKED, px(node.bounding.w)],
      ['data-expected-height', px(node.bounding.h)],
    ];
    if (offsets && node.tag !== 'BODY') {
      const origin = paddingOrigin(nodes, offsetParent(nodes, i));
      attrs.push(['data-offset-x', px(node.first.x - origin.x)], ['data-offset-y', px(node.first.y - origin.y)]);
    }
    element.attrs.push(...attrs.map(([name, value]) => ({ name, value })));
    checked++;
  });
  if (!checked) return { refused: 'no element of it has a box' };
  const head = elements.find((e) => e.tagName === 'head')!;
  const body = elements.find((e) => e.tagName === 'body')!;
  const about = `${aboutFinding(f)}; expectations from the majority: ${majority.engines.join(', ')}`;
  const added = [
    tree.createCommentNode(` browser-oracle: ${about.replace(/--/g, '- -')} `),
    element('title', [], `browser-oracle finding: ${f.id}`),
    element('meta', [
      ['name', 'assert'],
      ['content', about],
    ]),
    ...HARNESS.map((src) => element('script', [['src', src]])),
  ];
  for (const node of added) {
    tree.insertText(head, '\n');
    tree.appendChild(head, node);
  }
  tree.insertText(head, '\n');
  tree.appendChild(body, element('script', [], `window.addEventListener('load', () => checkLayout('[${CHECKED}]'));`));
  return { text: serialize(doc) };
}

function inHead(nodes: MajorityNode[], i: number): boolean {
  for (let p = nodes[i]!.parent; p >= 0; p = nodes[p]!.parent) if (nodes[p]!.tag === 'HEAD') return true;
  return false;
}

/** The index of node i's offsetParent, or null for none (or the body: both measure from the initial containing block). */
function offsetParent(nodes: MajorityNode[], i: number): number | null {
  const self = nodes[i]!;
  if (self.style.position === 'fixed') return null;
  for (let p = self.parent; p >= 0; p = nodes[p]!.parent) {
    const a = nodes[p]!;
    if (a.first === null) continue;
    if (a.tag === 'BODY') return null;
    if (a.style.position !== 'static') return p;
    if (self.style.position === 'static' && ['TD', 'TH', 'TABLE'].includes(a.tag)) return p;
  }
  return null;
}

/** Where offsets are measured from: the offsetParent's first box's padding edge, or the initial containing block's origin. */
function paddingOrigin(nodes: MajorityNode[], parent: number | null): { x: number; y: number } {
  if (parent === null) return { x: 0, y: 0 };
  const p = nodes[parent]!;
  return {
    x: p.first!.x + Number.parseFloat(p.style['border-left-width']!),
    y: p.first!.y + Number.parseFloat(p.style['border-top-width']!),
  };
}

function element(tag: string, attrs: [string, string][], text?: string): T.Element {
  const e = tree.createElement(
    tag,
    HTML.NS.HTML,
    attrs.map(([name, value]) => ({ name, value })),
  );
  if (text !== undefined) tree.insertText(e, text);
  return e;
}
