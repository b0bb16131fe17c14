// Random layout cases in the spirit of layout-quickcheck: small element trees with random CSS
// drawn from what a dump observes, optionally text, optionally a script that changes the tree.
// Case n of a seed depends on the seed, n and the options only, never on Math.random, the
// clock or the cases before it: the same command gives byte-identical cases, and asking for
// more cases extends the list without changing the ones already there (which a resumed
// campaign relies on).
import { MAX_LENGTH_PX, type Declaration } from './css-values.js';
import { drawElement } from './element.js';
import { hostFor } from './inline-boxes.js';
import { drawMutations, drawScript, MAX_MUTATIONS, MAX_SCRIPT_CHANGES, type Names } from './mutation-script.js';
import type { Mutation } from '../../protocol/mutations-schema.js';
import { Random } from './random.js';
import { supportedBy } from './supported-css.js';
import type { CandidateSupports } from '../../protocol/candidate-schema.js';
import type { FontSetName } from '../../protocol/font-sets.js';
import { displayOf, elementHtml, elementsOf, isPositioned, type ElementNode } from './tree.js';

/** What the generator makes: a geometry request. */
export interface GeneratedCase {
  id: string;
  html: string;
  script?: string;
  mutations?: Mutation[];
  /** The relayout check (docs/protocol.md): each engine also held to its own layout from scratch. */
  relayout?: true;
}

/** The shape of every case of a run. */
export interface CaseOptions {
  /** Text children and text properties (default false). */
  text?: boolean;
  /** A script that changes the tree after a first layout (default false). */
  script?: boolean;
  /**
   * Mutations (docs/protocol.md, "Mutations") that change the tree after a first layout, 1 to
   * MAX_MUTATIONS of them: the changes a script makes, in the vocabulary an engine under test
   * applies (default false; not with `script`).
   */
  mutations?: boolean;
  /**
   * Ask for the relayout check (default: with `script` or `mutations`). A mutation is where an engine's
   * incremental layout can keep what its layout from scratch would not give: a finding no vote
   * of several engines can make.
   */
  relayout?: boolean;
  /** Elements in the tree before any script runs, at least (default 5) … */
  minElements?: number;
  /** … and at most (default 30). */
  maxElements?: number;
  /**
   * Whether the case's root box clips what it holds (default true). Clipping keeps any
   * descendant from making the document scroll, which would get the case discarded; off, only
   * the bounded lengths keep cases inside the viewport.
   */
  clip?: boolean;
  /**
   * What an engine under test declares it lays out (its ping's `supports`): every declaration
   * drawn stays inside it, an element whose tag's display is outside it declares one inside, and
   * text is plain words. The cases then differ from the ones drawn without it.
   */
  supports?: CandidateSupports;
}

export interface GenerateOptions extends CaseOptions {
  /** How many cases. */
  count: number;
  /** Any whole number from 0 to Number.MAX_SAFE_INTEGER. */
  seed: number;
}

/**
 * The fonts a campaign judges generated cases in unless the user names others (--fonts, or a config
 * file). Under Liberation, an empty atomic inline's line takes its strut from Liberation's metrics,
 * which Gecko rounds its own way: 45 % of the disagreements of 300 generated cases (seeds 11 and
 * 2026) were Firefox outliers within 1 px. The square font makes text and line boxes the same size in
 * every engine (docs/fonts.md), and the same cases went from 31 % and 25 % unanimous to 62 % and 59 %.
 */
export const GENERATED_FONTS: FontSetName = 'square';

export const GENERATOR_DEFAULTS: Required<Omit<CaseOptions, 'relayout' | 'supports'>> = {
  text: false,
  script: false,
  mutations: false,
  minElements: 5,
  maxElements: 30,
  clip: true,
};

/** The bounds every case keeps to; the unit tests check them. */
export const GENERATOR_LIMITS = {
  /** The largest absolute px length an element's declarations hold. */
  lengthPx: MAX_LENGTH_PX,
  /** The root box's width and height range, within the 800×600 viewport (the body has no margin). */
  rootWidth: [200, 760],
  rootHeight: [150, 560],
  /** The most elements a tree may be asked for. */
  maxElements: 200,
  scriptChanges: MAX_SCRIPT_CHANGES,
  mutations: MAX_MUTATIONS,
} as const;

/** Cases 0 to count − 1 of `seed`, made one at a time as they are iterated; bad options throw here, not at the first case. */
export function generateCases(options: GenerateOptions): Generator<GeneratedCase> {
  requireWhole('count', options.count, Number.MAX_SAFE_INTEGER);
  requireWhole('seed', options.seed, Number.MAX_SAFE_INTEGER);
  const shape = caseOptions(options);
  return (function* () {
    for (let index = 0; index < options.count; index++) yield generateCase(options.seed, index, shape);
  })();
}

/** Case `index` of `seed`, alone: the same as the index-th case `generateCases` yields. */
export function generateCase(seed: number, index: number, options: CaseOptions = {}): GeneratedCase {
  requireWhole('seed', seed, Number.MAX_SAFE_INTEGER);
  requireWhole('index', index, Number.MAX_SAFE_INTEGER);
  const { text, script, mutations, relayout, minElements, maxElements, clip } = caseOptions(options);
  const supported = options.supports && supportedBy(options.supports);
  const random = new Random(seed % 2 ** 32, Math.floor(seed / 2 ** 32), index % 2 ** 32, Math.floor(index / 2 ** 32));
  const [minWidth, maxWidth] = GENERATOR_LIMITS.rootWidth;
  const [minHeight, maxHeight] = GENERATOR_LIMITS.rootHeight;
  const root: ElementNode = {
    id: 'root',
    tag: 'div',
    declarations: (
      [
        ['position', 'relative'],
        ...(clip ? [['overflow', 'hidden'] as const] : []),
        // Under the square font, lines without leading: where a line box has an odd number of pixels
        // of leading, Blink and WebKit put the smaller whole-pixel half above the text and Gecko half
        // of it exactly, which moved every inline box 0.5 px in Firefox (docs/campaign.md,
        // "Generator"). Elements that declare a line-height still have leading.
        ['line-height', '1'],
        ['width', `${random.int(minWidth, maxWidth)}px`],
        ['height', `${random.int(minHeight, maxHeight)}px`],
      ] as Declaration[]
    ).filter(([property, value]) => supported?.admits(property, value) ?? true),
    children: [],
  };
  // A candidate that lays out no block box with children (Yoga) gets a root it does lay out.
  const rootDisplay =
    supported?.admits('display', 'block') === false ? ROOT_DISPLAYS.find((d) => supported.admits('display', d)) : undefined;
  if (rootDisplay) root.declarations.unshift(['display', rootDisplay]);
  const count = random.int(minElements, maxElements);
  const elements = [root];
  for (let n = 0; n < count; n++) {
    // Half the time under the latest element, for depth; otherwise anywhere, for breadth.
    const parent = random.chance(0.5) ? elements[elements.length - 1]! : random.pick(elements);
    const element = drawElement(random, `e${n}`, {
      text,
      parentDisplay: displayOf(parent),
      parentPositioned: isPositioned(parent),
      supported,
    });
    const host = hostFor(root, parent, element);
    host.children.splice(random.int(0, host.children.length), 0, element);
    elements.push(element);
  }
  const html = `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">${elementHtml(root)}</body></html>`;
  const id = `gen-${seed}-${index}`;
  const checked = relayout ? { relayout: true as const } : {};
  let next = count;
  const context = { text, nextId: () => `e${next++}`, supported };
  if (script) return { id, html, script: drawScript(random, root, context), ...checked };
  if (!mutations) return { id, html, ...checked };
  // html, head, meta and body come before the root (index 4) in document order.
  // By id: a change drawn again puts back a copy of the tree, not its objects.
  const names: Names = { of: new Map(), next: 4 };
  for (const element of elementsOf(root)) names.of.set(element.id, names.next++);
  return { id, html, mutations: drawMutations(random, root, context, names), ...checked };
}

/** The root's display, in order of preference, for a candidate that does not admit a block root. */
const ROOT_DISPLAYS = ['flow-root', 'flex', 'grid'];

/** A generated case as the geometry request it is: `{"id","html"[,"script"|"mutations"][,"relayout"]}`. */
export function requestOf(generated: GeneratedCase): {
  id: string;
  html: string;
  script?: string;
  mutations?: Mutation[];
  relayout?: true;
} {
  const { id, html, script, mutations, relayout } = generated;
  return {
    id,
    html,
    ...(script === undefined ? {} : { script }),
    ...(mutations === undefined ? {} : { mutations }),
    ...(relayout ? { relayout } : {}),
  };
}

function caseOptions(options: CaseOptions): Required<Omit<CaseOptions, 'supports'>> & Pick<CaseOptions, 'supports'> {
  const resolved = {
    supports: options.supports,
    text: options.text ?? GENERATOR_DEFAULTS.text,
    script: options.script ?? GENERATOR_DEFAULTS.script,
    mutations: options.mutations ?? GENERATOR_DEFAULTS.mutations,
    relayout: options.relayout ?? (options.script || options.mutations || GENERATOR_DEFAULTS.script),
    minElements: options.minElements ?? GENERATOR_DEFAULTS.minElements,
    maxElements: options.maxElements ?? Math.max(GENERATOR_DEFAULTS.maxElements, options.minElements ?? 0),
    clip: options.clip ?? GENERATOR_DEFAULTS.clip,
  };
  if (resolved.script && resolved.mutations) throw new RangeError('generator: a case has a script or mutations, not both');
  requireWhole('maxElements', resolved.maxElements, GENERATOR_LIMITS.maxElements);
  requireWhole('minElements', resolved.minElements, resolved.maxElements);
  return resolved;
}

/** Throws a one-line RangeError unless `value` is a whole number from 0 to `max`. */
function requireWhole(name: string, value: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new RangeError(`generator: ${name} must be a whole number from 0 to ${max} (got ${value})`);
  }
}
