// The Yoga reference candidate: yoga-layout (Meta's flexbox engine, WebAssembly) with web
// semantics (no errata, no pixel rounding). Yoga has no block layout, so the body's in-flow boxes
// are stacked as block layout stacks them, in a column whose margins are collapsed beforehand as
// block layout collapses them; each absolutely positioned child of the body is laid out in a
// container the size of the viewport. Text is a leaf measured by the square-font measurement.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Align, Direction, Edge, FlexDirection, Justify, PositionType, type Node } from 'yoga-layout';
import type { Box } from '../web/boxes.js';
import type { Element } from '../web/document.js';
import type { Edges, Placed } from '../web/dump.js';
import { placedByContent, rootInsets, type Page } from '../web/page.js';
import { VIEWPORT } from '../../protocol/common.js';
import { supportsOf } from '../web/supports.js';
import { laidOutSize } from '../web/sizing.js';
import { measureText, type Fonts } from '../web/text.js';
import { Unsupported } from '../web/unsupported.js';
import type { LayoutEngine } from '../engine.js';
import { childContext, setYogaStyle, type Context } from './style.js';
import { KeptNodes, newNodes, YogaTree, type YogaNodes } from './nodes.js';

const { version } = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.resolve('yoga-layout'))), 'utf8')) as {
  version: string;
};

const EDGES = [Edge.Top, Edge.Right, Edge.Bottom, Edge.Left] as const;

export const yoga: LayoutEngine = {
  name: 'yoga',
  version: `yoga-layout ${version}`,
  keepsContents: true,
  supports: (fonts) => ({
    ...supportsOf(fonts, {
      drop: {
        // A block box only as a leaf (style.ts): declared, it would let a generator nest boxes in one.
        display: ['block', 'flow-root', 'grid'],
        float: ['left', 'right'],
        clear: true,
        overflow: ['clip'],
        'overflow-x': ['clip'],
        'overflow-y': ['clip'],
        'justify-content': ['safe'],
        'align-content': ['safe'],
        'align-items': ['safe', 'self-start', 'self-end'],
        'align-self': ['safe', 'self-start', 'self-end'],
        'justify-items': true,
        'justify-self': true,
        'grid-template-columns': true,
        'grid-template-rows': true,
        'grid-auto-columns': true,
        'grid-auto-rows': true,
        'grid-auto-flow': true,
        'grid-row': true,
        'grid-column': true,
        'grid-row-start': true,
        'grid-row-end': true,
        'grid-column-start': true,
        'grid-column-end': true,
        'grid-area': true,
      },
    }),
    mutations: true,
  }),
  layout(page, fonts) {
    const tree = new YogaTree();
    try {
      return layOut(page, fonts, newNodes(tree), (e) => e.index);
    } finally {
      tree.free();
    }
  },
  // One tree for the layouts of a case before and after its mutations, its nodes kept by element name (nodes.ts).
  incremental() {
    const tree = new YogaTree();
    const kept = new KeptNodes(tree);
    return { layout: (page, fonts, name) => layOut(page, fonts, kept.nodes, name), free: () => tree.free() };
  },
};

/** `page` laid out in nodes made by `nodes` under keys from the elements' names (their indices in the original document). */
function layOut(page: Page, fonts: Fonts, nodes: YogaNodes, name: (e: Element) => number): Map<Element, Placed> {
  const built = new Map<Box, Node>();
  const keyOf = (box: Box, anonymous: string) => (box.element ? `e${name(box.element)}` : anonymous);
  const build = (box: Box, context: Context, key = keyOf(box, ''), more?: (node: Node) => void): Node => {
    if (box.text !== undefined) {
      const leaf = nodes.leaf(
        key,
        (node) => {
          node.setDirection(box.style.direction === 'rtl' ? Direction.RTL : Direction.LTR);
          node.setFlexShrink(1);
        },
        measureText(box, fonts),
      );
      built.set(box, leaf);
      return leaf;
    }
    // The children of a display: contents box are its flex container's items (Yoga lays them out so).
    const inside: Context = box.style.display === 'contents' ? { ...context, root: false, insets: undefined } : childContext(box);
    const children = box.children.map((child, i) => build(child, inside, keyOf(child, `${key}/${i}`)));
    const node = nodes.container(
      key,
      (n) => {
        setYogaStyle(n, box, context);
        more?.(n);
      },
      children,
    );
    built.set(box, node);
    return node;
  };
  const viewport = (key: string, children: readonly Node[]) =>
    nodes.container(
      key,
      (node) => {
        node.setWidth(VIEWPORT.width);
        node.setHeight(VIEWPORT.height);
        node.setFlexDirection(FlexDirection.Column);
        node.setJustifyContent(Justify.FlexStart);
        node.setAlignItems(Align.Stretch);
        node.setPositionType(PositionType.Relative);
      },
      children,
    );

  // In flow: the body as a column of its boxes, margins collapsed as block layout would.
  const margins = bodyMargins(page);
  const inBody = page.inFlow.map((box, i) => {
    if (!box.element) throw new Unsupported('text in the body (Yoga has no block layout)');
    if (box.style.float !== 'none') throw new Unsupported(`float: ${box.style.float} (Yoga has no block layout)`);
    return build(box, { parentWrap: 'nowrap', inBlock: true, root: false }, keyOf(box, ''), (node) =>
      asBlockInBody(node, box, margins.boxes[i]!),
    );
  });
  const body = nodes.container(keyOf(page.body, 'body'), (node) => bodyColumn(node, page, margins), inBody);
  const inFlow = viewport('viewport in flow', [body]);
  inFlow.calculateLayout(VIEWPORT.width, VIEWPORT.height, Direction.LTR);
  const placed = new Map<Element, Placed>();
  const b = body.getComputedLayout();
  for (const box of page.inFlow) read(box, b.left, b.top, built, placed);
  placed.set(page.html.element!, edgeless(0, 0, VIEWPORT.width, b.top + b.height + body.getComputedMargin(Edge.Bottom)));
  placed.set(page.body.element!, placedOf(body, b.left, b.top));
  for (const box of page.inFlow) {
    const n = built.get(box)!;
    if (n.getComputedHeight() === 0 && box.style['margin-top'] !== 'auto' && box.style['margin-bottom'] !== 'auto') {
      const mt = box.style['margin-top'];
      const mb = box.style['margin-bottom'];
      if (mt.n !== 0 || mb.n !== 0) throw new Unsupported('margins collapsing through an empty box in the body (Yoga has no block layout)');
    }
  }

  if (page.outOfFlow.length) {
    const bp = placed.get(page.body.element!)!;
    const content = { x: bp.x + bp.border[3] + bp.padding[3], y: bp.y + bp.border[0] + bp.padding[0] };
    const againstViewport: Box[] = [];
    for (const box of page.outOfFlow) {
      const insets = rootInsets(page, box, content);
      const root = build(box, { parentWrap: 'nowrap', inBlock: false, root: true, insets });
      // Sized by its content where CSS sizes it so: laid out alone with no space given, as Yoga's
      // own fixtures are (its layout against a definite viewport differs, measured: a percentage
      // width in a root sized by its min-width resolved there, and Yoga's own tests fail on it).
      const byContent = placedByContent(box, insets);
      if (byContent) {
        nodes.detach(root);
        root.calculateLayout(undefined, undefined, Direction.LTR);
        const at = byContent(root.getComputedWidth(), root.getComputedHeight());
        if (at) {
          read(box, at.x - root.getComputedLeft(), at.y - root.getComputedTop(), built, placed);
          continue;
        }
      }
      againstViewport.push(box);
    }
    if (againstViewport.length) {
      const outOfFlow = viewport(
        'viewport out of flow',
        againstViewport.map((box) => built.get(box)!),
      );
      outOfFlow.calculateLayout(VIEWPORT.width, VIEWPORT.height, Direction.LTR);
      for (const box of againstViewport) read(box, 0, 0, built, placed);
    }
  }
  return placed;
}

/**
 * The body's vertical margins and each of its boxes', with the top margin of its first box and
 * the bottom margin of its last collapsed into its own where no border or padding separates them,
 * and adjacent margins of its boxes collapsed into one.
 */
function bodyMargins(page: Page): { top: number; bottom: number; boxes: [number, number][] } {
  const { margin, border, padding } = page.bodyEdges;
  const contentWidth = VIEWPORT.width - margin[1] - margin[3] - border[1] - border[3] - padding[1] - padding[3];
  const vertical = page.inFlow.map((box): [number, number] => [
    resolve(box.style['margin-top'], contentWidth),
    resolve(box.style['margin-bottom'], contentWidth),
  ]);
  let [top, bottom] = [margin[0], margin[2]];
  for (let i = 0; i + 1 < vertical.length; i++) {
    vertical[i]![1] = collapse(vertical[i]![1], vertical[i + 1]![0]);
    vertical[i + 1]![0] = 0;
  }
  if (vertical.length && border[0] === 0 && padding[0] === 0) {
    top = collapse(top, vertical[0]![0]);
    vertical[0]![0] = 0;
  }
  if (vertical.length && border[2] === 0 && padding[2] === 0) {
    bottom = collapse(bottom, vertical.at(-1)![1]);
    vertical.at(-1)![1] = 0;
  }
  return { top, bottom, boxes: vertical };
}

/** The body as a column: its margins (collapsed with its boxes', `margins`), borders and padding. */
function bodyColumn(node: Node, page: Page, { top, bottom }: { top: number; bottom: number }): void {
  const { margin, border, padding } = page.bodyEdges;
  node.setFlexDirection(FlexDirection.Column);
  node.setAlignItems(Align.Stretch);
  node.setJustifyContent(Justify.FlexStart);
  node.setFlexShrink(0);
  // The body is static (page.ts demands it): an absolutely positioned box in it has the viewport as its containing block, not the body.
  node.setPositionType(PositionType.Static);
  const edges: Edges = [top, margin[1], bottom, margin[3]];
  EDGES.forEach((edge, i) => {
    node.setMargin(edge, edges[i]!);
    node.setBorder(edge, border[i]!);
    node.setPadding(edge, padding[i]!);
  });
}

const resolve = (l: Box['style']['margin-top'], basis: number) => (l === 'auto' ? 0 : l.unit === '%' ? (l.n * basis) / 100 : l.n);

/** Two adjoining margins as one: the largest positive plus the most negative. */
const collapse = (a: number, b: number) => Math.max(a, b, 0) + Math.min(a, b, 0);

/** A box of the body, made to lay out as a block-level box in block layout rather than as a flex item. */
function asBlockInBody(node: Node, box: Box, [top, bottom]: [number, number]): void {
  node.setFlexGrow(0);
  node.setFlexShrink(0);
  node.setFlexBasisAuto();
  node.setMargin(Edge.Top, top);
  node.setMargin(Edge.Bottom, bottom);
  const autoWidth = laidOutSize(box.style, 'width', { inBlock: true, insets: box.style }) === 'auto';
  // A block box with an auto width fills the line (its auto margins are 0); with a width, auto margins center it.
  if (autoWidth) {
    if (box.style['margin-left'] === 'auto') node.setMargin(Edge.Left, 0);
    if (box.style['margin-right'] === 'auto') node.setMargin(Edge.Right, 0);
  }
  node.setAlignSelf(autoWidth ? Align.Stretch : Align.FlexStart);
}

function edgeless(x: number, y: number, width: number, height: number): Placed {
  return { x, y, width, height, margin: [0, 0, 0, 0], padding: [0, 0, 0, 0], border: [0, 0, 0, 0] };
}

function placedOf(node: Node, x: number, y: number): Placed {
  const edges = (get: (e: Edge) => number): Edges => EDGES.map(get) as unknown as Edges;
  return {
    x,
    y,
    width: node.getComputedWidth(),
    height: node.getComputedHeight(),
    margin: edges((e) => node.getComputedMargin(e)),
    padding: edges((e) => node.getComputedPadding(e)),
    border: edges((e) => node.getComputedBorder(e)),
  };
}

/** Every element box of `box`'s subtree, in viewport coordinates (Yoga places a node relative to its parent's box). */
function read(box: Box, x: number, y: number, built: ReadonlyMap<Box, Node>, placed: Map<Element, Placed>): void {
  const node = built.get(box)!;
  const left = x + node.getComputedLeft();
  const top = y + node.getComputedTop();
  // A display: contents node has no box: Yoga places its children relative to its parent's, and it sits at 0, 0.
  if (box.element && box.style.display !== 'contents') placed.set(box.element, placedOf(node, left, top));
  for (const child of box.children) read(child, left, top, built, placed);
}
