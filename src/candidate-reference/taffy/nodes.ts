// How the Taffy candidate makes its nodes: new ones in a new tree (a case's layout, or a mutated
// case's layout from scratch), or, for the layout after a case's mutations, the nodes of the tree
// it laid the original document out in, kept by key and changed through Taffy's own incremental
// API — a style that changed is set (setStyle marks the node dirty), a text that changed is set as
// the leaf's context and the leaf marked dirty, children that changed are set (setChildren marks
// the parent dirty) — so that the layout after it is Taffy's incremental one, with its cache.
import type { Style, TaffyTree } from 'taffy-layout';
import type { MeasuredText } from '../web/text.js';

export interface Nodes {
  /** A leaf of `style` (freed here: Taffy keeps its own copy), measured by `text` when it has one. */
  leaf(key: string, style: Style, text: MeasuredText | undefined): bigint;
  /** A node of `style` (freed here) over `children`. */
  container(key: string, style: Style, children: readonly bigint[]): bigint;
}

/** New nodes in `tree`. */
export const newNodes = (tree: TaffyTree): Nodes => ({
  leaf(_key, style, text) {
    const id = text ? tree.newLeafWithContext(style, text) : tree.newLeaf(style);
    style.free();
    return id;
  },
  container(_key, style, children) {
    const id = tree.newWithChildren(style, [...children]);
    style.free();
    return id;
  },
});

/** The properties a Style holds, each as its own value (the shorthands' parts, not the shorthands). */
const STYLE_KEYS = [
  'display',
  'position',
  'direction',
  'float',
  'clear',
  'boxSizing',
  'overflowX',
  'overflowY',
  'flexDirection',
  'flexWrap',
  'flexGrow',
  'flexShrink',
  'flexBasis',
  'alignItems',
  'alignSelf',
  'alignContent',
  'justifyContent',
  'justifyItems',
  'justifySelf',
  'aspectRatio',
  'width',
  'height',
  'minWidth',
  'minHeight',
  'maxWidth',
  'maxHeight',
  'marginLeft',
  'marginRight',
  'marginTop',
  'marginBottom',
  'paddingLeft',
  'paddingRight',
  'paddingTop',
  'paddingBottom',
  'borderLeft',
  'borderRight',
  'borderTop',
  'borderBottom',
  'left',
  'right',
  'top',
  'bottom',
  'columnGap',
  'rowGap',
  'itemIsTable',
  'itemIsReplaced',
  'scrollbarWidth',
  'textAlign',
  'gridAutoFlow',
  'gridRowStart',
  'gridRowEnd',
  'gridColumnStart',
  'gridColumnEnd',
  'gridTemplateRows',
  'gridTemplateColumns',
  'gridAutoRows',
  'gridAutoColumns',
  'gridTemplateAreas',
  'gridTemplateRowNames',
  'gridTemplateColumnNames',
] as const;

// Style.get is declared in a module augmentation that the package's own entry point leaves out.
const styleText = (style: Style) => JSON.stringify((style as unknown as { get(...keys: string[]): unknown }).get(...STYLE_KEYS));

/** A node as kept: what it was made of, to tell what changed. */
interface Kept {
  id: bigint;
  leaf: boolean;
  style: string;
  text: string | undefined;
  children: readonly bigint[];
}

/**
 * Nodes kept by key in one tree across layouts: `nodes` makes or reuses them, changing in a kept
 * node only what changed. A node whose key is not asked again stays in the tree, detached from
 * the layout (the tree is freed with the case).
 */
export class KeptNodes {
  private readonly kept = new Map<string, Kept>();
  readonly nodes: Nodes;

  constructor(tree: TaffyTree) {
    const made = newNodes(tree);
    const reuse = (key: string, style: Style, leaf: boolean): Kept | undefined => {
      const k = this.kept.get(key);
      if (!k || k.leaf !== leaf) return undefined;
      const text = styleText(style);
      if (text !== k.style) {
        tree.setStyle(k.id, style);
        k.style = text;
      }
      style.free();
      return k;
    };
    this.nodes = {
      leaf: (key, style, measured) => {
        const text = measured && JSON.stringify(measured);
        const k = reuse(key, style, true);
        if (!k) {
          const kept: Kept = { id: 0n, leaf: true, style: styleText(style), text, children: [] };
          kept.id = made.leaf(key, style, measured);
          this.kept.set(key, kept);
          return kept.id;
        }
        if (text !== k.text) {
          tree.setNodeContext(k.id, measured);
          tree.markDirty(k.id);
          k.text = text;
        }
        return k.id;
      },
      container: (key, style, children) => {
        const k = reuse(key, style, false);
        if (!k) {
          const kept: Kept = { id: 0n, leaf: false, style: styleText(style), text: undefined, children };
          kept.id = made.container(key, style, children);
          this.kept.set(key, kept);
          return kept.id;
        }
        if (children.length !== k.children.length || children.some((c, i) => c !== k.children[i])) {
          tree.setChildren(k.id, [...children]);
          k.children = children;
        }
        return k.id;
      },
    };
  }
}
