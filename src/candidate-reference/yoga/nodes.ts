// How the Yoga candidate makes its nodes: new ones (a case's layout, or a mutated case's layout
// from scratch), or, for the layout after a case's mutations, the nodes it laid the original
// document out in, kept by key (kept.ts) and changed through Yoga's own incremental API — a
// node's style is written on a new node and copied onto the kept one (copyStyle marks it dirty
// only when the style differs, which covers a property set back to its default), a text leaf
// whose text changed gets its new measure function and is marked dirty, and children that
// changed are removed and inserted (each marks the parent dirty) — so that the layout after it
// is Yoga's incremental one, with its cache.
import Yoga, { Errata, MeasureMode, type Config, type Node } from 'yoga-layout';
import { lineBox, type MeasuredText } from '../web/text.js';
import { KeptByKey, sameChildren, textKey, type Kept } from '../kept.js';

export interface YogaNodes {
  /** A text leaf, its style written by `style`, measured by `text`. */
  leaf(key: string, style: (node: Node) => void, text: MeasuredText): Node;
  /** A node, its style written by `style`, over `children`. */
  container(key: string, style: (node: Node) => void, children: readonly Node[]): Node;
  /** `node` out of its parent, if it has one (a root laid out alone that the last layout put in a viewport). */
  detach(node: Node): void;
}

/** Every node made in one config, freed together. */
export class YogaTree {
  readonly config: Config;
  private readonly made: Node[] = [];

  /** Web semantics: no errata, and no rounding to whole pixels (browsers lay out in 1/60 or 1/64 px). */
  constructor() {
    this.config = Yoga.Config.create();
    this.config.setErrata(Errata.None);
    this.config.setPointScaleFactor(0);
  }

  create(): Node {
    const node = Yoga.Node.create(this.config);
    this.made.push(node);
    return node;
  }

  free(): void {
    for (const n of this.made) n.free();
    this.config.free();
  }
}

const measureOf = (text: MeasuredText) => (width: number, widthMode: MeasureMode, height: number, heightMode: MeasureMode) => {
  const size = lineBox(text, widthMode === MeasureMode.Undefined ? Number.POSITIVE_INFINITY : width);
  return {
    width: widthMode === MeasureMode.Exactly ? width : size.width,
    height: heightMode === MeasureMode.Exactly ? height : size.height,
  };
};

/** New nodes in `tree`. */
export const newNodes = (tree: YogaTree): YogaNodes => ({
  leaf(_key, style, text) {
    const node = tree.create();
    style(node);
    node.setMeasureFunc(measureOf(text));
    return node;
  },
  container(_key, style, children) {
    const node = tree.create();
    style(node);
    children.forEach((c, i) => {
      node.insertChild(c, i);
    });
    return node;
  },
  detach: () => undefined,
});

/** Nodes kept by key in one tree across layouts: `nodes` makes or reuses them, changing in a kept node only what changed. */
export class KeptNodes {
  readonly nodes: YogaNodes;
  private readonly byKey = new KeptByKey<Node>();
  /** The kept node each kept node is a child of (Yoga's getParent answers with a new wrapper each time). */
  private readonly parents = new Map<Node, Kept<Node>>();

  constructor(private readonly tree: YogaTree) {
    this.nodes = {
      leaf: (key, style, text) => {
        const { kept, made } = this.byKey.take(key, true, text, () => tree.create());
        this.restyle(kept.node, style, made);
        if (made || textKey(text) !== kept.text) {
          kept.node.setMeasureFunc(measureOf(text));
          if (!made) kept.node.markDirty();
          kept.text = textKey(text);
        }
        return kept.node;
      },
      container: (key, style, children) => {
        const { kept, made } = this.byKey.take(key, false, undefined, () => tree.create());
        this.restyle(kept.node, style, made);
        if (!sameChildren(kept.children, children)) this.setChildren(kept, children);
        return kept.node;
      },
      detach: (node) => this.detach(node),
    };
  }

  /** `style` written on a new node `node` itself, or on a scratch node and copied onto the kept `node`. */
  private restyle(node: Node, style: (node: Node) => void, made: boolean): void {
    if (made) {
      style(node);
      return;
    }
    const scratch = Yoga.Node.create(this.tree.config);
    try {
      style(scratch);
      node.copyStyle(scratch);
    } finally {
      scratch.free();
    }
  }

  private detach(node: Node): void {
    const parent = this.parents.get(node);
    if (!parent) return;
    parent.node.removeChild(node);
    this.parents.delete(node);
  }

  /** Yoga's children of `kept` made `children`: those that went removed, those that came or moved inserted at their place. */
  private setChildren(kept: Kept<Node>, children: readonly Node[]): void {
    const wanted = new Set(children);
    // What Yoga holds now: the children last set, less those another node took since.
    const now = kept.children.filter((c) => this.parents.get(c) === kept);
    for (const c of now) if (!wanted.has(c)) this.detach(c);
    const held = now.filter((c) => wanted.has(c));
    children.forEach((c, i) => {
      if (held[i] === c) return;
      const at = held.indexOf(c);
      if (at >= 0) held.splice(at, 1);
      this.detach(c);
      kept.node.insertChild(c, i);
      held.splice(i, 0, c);
      this.parents.set(c, kept);
    });
    kept.children = children;
  }
}
