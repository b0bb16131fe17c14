// What the reference candidates share: a layout engine behind one interface, and the run of one
// case through it — parse, cascade, boxes, the page around them, the engine's layout, the dump;
// for a case with mutations, twice more: in the engine's kept tree after them, and from scratch.
// Whatever the web model or the engine's mapping cannot do exactly is the case's `unsupported`.
import type { CandidateAnswer, CandidateCase, CandidateDump, CandidateSupports } from '../protocol/candidate-schema.js';
import type { Mutation } from '../protocol/mutations-schema.js';
import { applyMutations } from './mutate.js';
import { buildBoxes, layoutChildren, type Box } from './web/boxes.js';
import { cascade } from './web/cascade.js';
import { parseDocument, type Document, type Element } from './web/document.js';
import { underTestAlone } from './web/under-test.js';
import { buildDump, type Placed } from './web/dump.js';
import { pageOf, type Page } from './web/page.js';
import { computeStyles } from './web/style.js';
import type { FontMode, Fonts } from './web/text.js';
import { Unsupported } from './web/unsupported.js';
import { USER_AGENT_SHEET } from './web/user-agent.js';

export interface LayoutEngine {
  /** The engine name its dumps carry. */
  readonly name: string;
  readonly version: string;
  /** Whether the engine lays out display: contents itself (else its children take its place in the box tree). */
  readonly keepsContents: boolean;
  supports(fonts: FontMode): CandidateSupports;
  /** The border box (and used edges) of every element box in the page, in viewport coordinates. */
  layout(page: Page, fonts: Fonts): Map<Element, Placed>;
  /** A layout that keeps its engine's tree from one page to the next (a case before and after its mutations); left out where the engine has none. */
  incremental?(): IncrementalLayout;
}

/** One engine tree, laid out again and again: its nodes are kept by element name (an element's index in the case's original document). */
interface IncrementalLayout {
  layout(page: Page, fonts: Fonts, name: (element: Element) => number): Map<Element, Placed>;
  free(): void;
}

/** The stages of a case, in order. */
export const STAGES = ['parse', 'cascade', 'style', 'boxes', 'layout', 'dump'] as const;
type Stage = (typeof STAGES)[number];

/** Runs one stage of a case; bench/candidate-stages.ts times each through it. */
export type StageRunner = <T>(stage: Stage, run: () => T) => T;
const untimed: StageRunner = (_stage, run) => run();

/** One case through the engine: its answer line's value. */
export function layOutCase(
  engine: LayoutEngine,
  request: CandidateCase,
  fontMode: FontMode,
  stage: StageRunner = untimed,
): CandidateAnswer {
  const { id } = request;
  try {
    if (request.script !== undefined) throw new Unsupported('script (a reference candidate runs no JavaScript)');
    const document = stage('parse', () => parseDocument(request.html, request.site));
    const runsScript = document.script ? new Unsupported(`${document.script} (a reference candidate runs no JavaScript)`) : null;
    // A check-layout page always runs the harness's script: its elements under test, as the markup has them, are still judged below.
    if (runsScript && !request.authored) throw runsScript;
    if (request.mutations) return { id, ...layOutMutated(engine, document, request.mutations, fontMode, stage) };
    const layout = (page: Page, fonts: Fonts) => engine.layout(page, fonts);
    try {
      if (runsScript) throw runsScript;
      const { dump, roots } = layOutDocument(engine, document, fontMode, stage, layout);
      return roots.length ? { id, dump, roots } : { id, dump };
    } catch (error) {
      // A check-layout page whose prose it cannot measure: the elements under test, laid out alone.
      const alone = error instanceof Unsupported && request.authored ? underTestAlone(document, request.authored.scope) : null;
      if (alone === null) throw error;
      const { dump } = layOutDocument(engine, alone.document, fontMode, stage, layout);
      return { id, dump, roots: alone.roots, placed: false };
    }
  } catch (error) {
    if (error instanceof Unsupported) return { id, unsupported: error.message };
    return { id, error: `internal_error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * A case with mutations: the original laid out in an engine tree the engine keeps, the mutations
 * applied, and the mutated document laid out in that tree again (`dump`, the engine's incremental
 * layout), and in a new one (`fresh`).
 */
function layOutMutated(
  engine: LayoutEngine,
  document: Document,
  mutations: readonly Mutation[],
  fontMode: FontMode,
  stage: StageRunner,
): { dump: CandidateDump; fresh: CandidateDump; roots?: number[] } {
  if (!engine.incremental) throw new Unsupported(`mutations (${engine.name} keeps no tree between layouts)`);
  const kept = engine.incremental();
  try {
    layOutDocument(engine, document, fontMode, stage, (page, fonts) => kept.layout(page, fonts, (e) => e.index));
    const mutated = applyMutations(document, mutations);
    const { dump, roots } = layOutDocument(engine, mutated.document, fontMode, stage, (page, fonts) =>
      kept.layout(page, fonts, (e) => mutated.names.get(e)!),
    );
    const fresh = layOutDocument(engine, mutated.document, fontMode, stage, (page, fonts) => engine.layout(page, fonts)).dump;
    return roots.length ? { dump, fresh, roots } : { dump, fresh };
  } finally {
    kept.free();
  }
}

/** A parsed document through the stages, laid out by `layout`: its dump, and the roots the candidate lays out. */
function layOutDocument(
  engine: LayoutEngine,
  document: Document,
  fontMode: FontMode,
  stage: StageRunner,
  layout: (page: Page, fonts: Fonts) => Map<Element, Placed>,
): { dump: CandidateDump; roots: number[] } {
  const cascaded = stage('cascade', () => cascade(document, USER_AGENT_SHEET));
  const styled = stage('style', () => computeStyles(document, cascaded));
  const { html, page } = stage('boxes', () => {
    const html = buildBoxes(document.root, styled, { keepContents: engine.keepsContents });
    return { html, page: pageOf(document, html, styled.styles) };
  });
  const boxes = stage('layout', () => layout(page, { mode: fontMode, fontFaces: cascaded.fontFaces }));
  const dump = stage('dump', () =>
    buildDump(engine.name, engine.version, document, styled.styles, { boxes, items: flexAndGridItems(html) }),
  );
  return { dump, roots: [...page.roots] };
}

/** The elements that are in-flow items of a flex or grid container. */
function flexAndGridItems(root: Box): Set<Element> {
  const items = new Set<Element>();
  const visit = (box: Box) => {
    if (box.style.display === 'flex' || box.style.display === 'grid') {
      for (const c of layoutChildren(box))
        if (c.element && c.style.position !== 'absolute' && c.style.position !== 'fixed') items.add(c.element);
    }
    for (const c of box.children) visit(c);
  };
  visit(root);
  return items;
}
