// The Taffy reference candidate: taffy-layout (Taffy compiled to WebAssembly) lays out the body's
// in-flow boxes under html and body as block boxes, and each absolutely positioned child of the
// body in a container the size of the viewport. Text is a leaf measured by the square-font
// measurement; rounding is off, so boxes are Taffy's own floats.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Display, Direction, loadTaffy, Style, TaffyTree, type AvailableSpace, type Size } from 'taffy-layout';
import type { Box } from '../web/boxes.js';
import type { Element } from '../web/document.js';
import type { Placed } from '../web/dump.js';
import { placedByContent, rootInsets, type Page } from '../web/page.js';
import { VIEWPORT } from '../../protocol/common.js';
import { supportsOf } from '../web/supports.js';
import { lineBox, measureText, type Fonts, type MeasuredText } from '../web/text.js';
import type { LayoutEngine } from '../engine.js';
import { taffyStyle, type Context } from './style.js';
import { KeptNodes, newNodes, type Nodes } from './nodes.js';

await loadTaffy();

const { version } = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.resolve('taffy-layout'))), 'utf8')) as {
  version: string;
};

const BLOCK_CONTAINERS = new Set(['block', 'flow-root']);

export const taffy: LayoutEngine = {
  name: 'taffy',
  version: `taffy-layout ${version}`,
  keepsContents: false,
  // Taffy lays an absolutely positioned box out in its parent (style.ts refuses any other containing block).
  supports: (fonts) => ({ ...supportsOf(fonts, { absolute: 'parent' }), mutations: true }),
  layout(page, fonts) {
    const tree = new TaffyTree();
    tree.disableRounding();
    try {
      return layOut(tree, page, fonts, newNodes(tree), (e) => e.index);
    } finally {
      tree.free();
    }
  },
  // One tree for the layouts of a case before and after its mutations, its nodes kept by element name (nodes.ts).
  incremental() {
    const tree = new TaffyTree();
    tree.disableRounding();
    const kept = new KeptNodes(tree);
    return { layout: (page, fonts, name) => layOut(tree, page, fonts, kept.nodes, name), free: () => tree.free() };
  },
};

/** A node as built: its id, the box it lays out (none for a viewport), and its children, as Taffy holds them. */
interface Built {
  readonly id: bigint;
  readonly box?: Box;
  readonly children: readonly Built[];
}

/** `page` laid out in `tree`, its nodes made by `nodes` under keys from the elements' names (their indices in the original document). */
function layOut(tree: TaffyTree, page: Page, fonts: Fonts, nodes: Nodes, name: (e: Element) => number): Map<Element, Placed> {
  const styles = page.styles;
  /** Whether any node is text: without one, layout needs no measure function, which Taffy calls back into JavaScript for every leaf. */
  let measures = false;
  const keyOf = (box: Box, anonymous: string) => (box.element ? `e${name(box.element)}` : anonymous);
  const node = (box: Box, context: Context, key = keyOf(box, '')): Built => {
    if (box.text !== undefined) {
      measures = true;
      const leaf = fresh((s) => {
        s.display = Display.Block;
        s.direction = box.style.direction === 'rtl' ? Direction.Rtl : Direction.Ltr;
      });
      return { id: nodes.leaf(key, leaf, measureText(box, fonts)), box, children: [] };
    }
    // An element whose one child is a run of text is itself the measured leaf, as Taffy's own
    // fixtures make it (a container with the text as its item takes other paths through Taffy:
    // a grid item aligned to start kept its text's max-content width there, not its area's).
    const only = box.children.length === 1 ? box.children[0]! : undefined;
    if (only?.text !== undefined) {
      measures = true;
      return { id: nodes.leaf(key, taffyStyle(box, context), measureText(only, fonts)), box, children: [] };
    }
    const inBlock = BLOCK_CONTAINERS.has(box.style.display);
    const children = box.children.map((c, i) => node(c, { inBlock, root: false, parent: box.element, styles }, keyOf(c, `${key}/${i}`)));
    return { id: withChildren(key, taffyStyle(box, context), children), box, children };
  };
  /** A node of `style` (freed by `nodes`: Taffy keeps its own copy) over `children`. */
  const withChildren = (key: string, style: Style, children: readonly Built[]): bigint =>
    nodes.container(
      key,
      style,
      children.map((c) => c.id),
    );
  const viewport = (key: string, children: Built[]): Built => {
    const style = fresh((s) => {
      s.display = Display.FlowRoot;
      s.size = { width: VIEWPORT.width, height: VIEWPORT.height };
    });
    return { id: withChildren(key, style, children), children };
  };

  // In flow: html (a block formatting context, as the root always is) > body > its in-flow boxes.
  const body = page.body;
  const bodyStyle = taffyStyle(body, { inBlock: true, root: false, parent: page.html.element, styles });
  const inBody = page.inFlow.map((b) => node(b, { inBlock: true, root: false, parent: body.element, styles }));
  const bodyNode: Built = { id: withChildren(keyOf(body, ''), bodyStyle, inBody), box: body, children: inBody };
  const htmlStyle = taffyStyle(page.html, { inBlock: true, root: true, parent: null, styles });
  htmlStyle.display = Display.FlowRoot;
  const htmlNode: Built = { id: withChildren(keyOf(page.html, ''), htmlStyle, [bodyNode]), box: page.html, children: [bodyNode] };
  const inFlowRoot = viewport('viewport in flow', [htmlNode]);
  compute(tree, inFlowRoot.id, measures, { width: VIEWPORT.width, height: VIEWPORT.height });
  const placed = new Map<Element, Placed>();
  read(tree, inFlowRoot, 0, 0, placed);

  if (page.outOfFlow.length) {
    const b = placed.get(body.element!)!;
    const content = { x: b.x + b.border[3] + b.padding[3], y: b.y + b.border[0] + b.padding[0] };
    const againstViewport: Built[] = [];
    for (const box of page.outOfFlow) {
      const insets = rootInsets(page, box, content);
      const context = { inBlock: true, root: true, insets, parent: null, styles };
      // Sized by its content where CSS sizes it so: laid out alone with no space given, as
      // Taffy's own fixtures are (its layout in a definite space differs, measured: a flex
      // container's max-content width there ignores an item's max-width).
      const root = node(box, context);
      const byContent = placedByContent(box, insets);
      if (byContent) {
        compute(tree, root.id, measures, MAX_CONTENT);
        const { width, height } = tree.getLayout(root.id);
        const at = byContent(width, height);
        if (at) {
          read(tree, root, at.x, at.y, placed);
          continue;
        }
      }
      againstViewport.push(root);
    }
    if (againstViewport.length) {
      const outOfFlowRoot = viewport('viewport out of flow', againstViewport);
      compute(tree, outOfFlowRoot.id, measures, { width: VIEWPORT.width, height: VIEWPORT.height });
      read(tree, outOfFlowRoot, 0, 0, placed);
    }
  }
  return placed;
}

const MAX_CONTENT = { width: 'max-content', height: 'max-content' } as const;

/** A new Style, set up by `set` (taffy's own defaults are not the web's: display flex among them). */
function fresh(set: (s: Style) => void): Style {
  const s = new Style();
  set(s);
  return s;
}

function compute(tree: TaffyTree, root: bigint, measures: boolean, space: Size<AvailableSpace>): void {
  // A leaf without a measure function has no content size, as one measured by `measure` below has none without text.
  if (!measures) {
    tree.computeLayout(root, space);
    return;
  }
  tree.computeLayoutWithMeasure(root, space, (known, available, _node, context) => {
    const text = context as MeasuredText | undefined;
    if (!text) return { width: known.width ?? 0, height: known.height ?? 0 };
    const width = known.width ?? fitContent(text, available.width);
    return { width, height: known.height ?? lineBox(text, width).height };
  });
}

/**
 * The width a block of text takes in the space given: its fit-content width (its max-content
 * width where that fits, else the space, but never under its min-content width), as CSS sizes a
 * box by its content and as Taffy's own fixtures measure their text.
 */
function fitContent(text: MeasuredText, space: AvailableSpace): number {
  const min = lineBox(text, 0).width;
  if (space === 'min-content') return min;
  const max = lineBox(text, Number.POSITIVE_INFINITY).width;
  return space === 'max-content' ? max : Math.min(max, Math.max(min, space));
}

/** Every element box under `node`, placed in viewport coordinates (Taffy places a box relative to its parent's). */
function read(tree: TaffyTree, node: Built, px: number, py: number, placed: Map<Element, Placed>): void {
  const layout = tree.getLayout(node.id);
  const left = px + layout.x;
  const top = py + layout.y;
  const element = node.box?.element;
  if (element) {
    placed.set(element, {
      x: left,
      y: top,
      width: layout.width,
      height: layout.height,
      margin: [layout.marginTop, layout.marginRight, layout.marginBottom, layout.marginLeft],
      padding: [layout.paddingTop, layout.paddingRight, layout.paddingBottom, layout.paddingLeft],
      border: [layout.borderTop, layout.borderRight, layout.borderBottom, layout.borderLeft],
    });
  }
  layout.free();
  for (const child of node.children) read(tree, child, left, top, placed);
}
