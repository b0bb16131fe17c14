// How the Taffy candidate makes its nodes: new ones in a new tree (a case's layout, or a mutated
// case's layout from scratch), or, for the layout after a case's mutations, the nodes of the tree
// it laid the original document out in, kept by key and changed through Taffy's own incremental
// API — a style that changed is set (setStyle marks the node dirty), a text that changed is set as
// the leaf's context and the leaf marked dirty, children that changed are set (setChildren marks
// the parent dirty) — so that the layout after it is Taffy's incremental one, with its cache.
import type { Style, TaffyTree } from 'taffy-layout';
import type { MeasuredText } from '../web/text.js';
import { KeptByKey, sameChildren, textKey } from '../kept.js';

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

/**
 * Nodes kept by key in one tree across layouts (kept.ts): `nodes` makes or reuses them, changing
 * in a kept node only what changed.
 */
export class KeptNodes {
  readonly nodes: Nodes;

  constructor(tree: TaffyTree) {
    const made = newNodes(tree);
    const byKey = new KeptByKey<bigint>();
    /** The style each kept node was last given, as text. */
    const styles = new Map<bigint, string>();
    this.nodes = {
      leaf: (key, style, measured) => {
        const styled = styleText(style);
        const { kept, made: isNew } = byKey.take(key, true, measured, () => made.leaf(key, style, measured));
        if (!isNew) {
          restyle(kept.node, style, styled);
          const text = textKey(measured);
          if (text !== kept.text) {
            tree.setNodeContext(kept.node, measured);
            tree.markDirty(kept.node);
            kept.text = text;
          }
        }
        styles.set(kept.node, styled);
        return kept.node;
      },
      container: (key, style, children) => {
        const styled = styleText(style);
        const { kept, made: isNew } = byKey.take(key, false, undefined, () => made.container(key, style, children));
        if (!isNew) {
          restyle(kept.node, style, styled);
          if (!sameChildren(kept.children, children)) tree.setChildren(kept.node, [...children]);
        }
        kept.children = children;
        styles.set(kept.node, styled);
        return kept.node;
      },
    };
    /** A kept node given `style` (which marks it dirty) when it differs from its last; `style` freed. */
    const restyle = (id: bigint, style: Style, styled: string) => {
      if (styled !== styles.get(id)) tree.setStyle(id, style);
      style.free();
    };
  }
}
