// What the reference candidates share: a layout engine behind one interface, and the run of one
// case through it — parse, cascade, boxes, the page around them, the engine's layout, the dump.
// Whatever the web model or the engine's mapping cannot do exactly is the case's `unsupported`.
import type { CandidateAnswer, CandidateCase, CandidateSupports } from '../protocol/candidate-schema.js';
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
    const document = stage('parse', () => parseDocument(request.html));
    if (document.script) throw new Unsupported(`${document.script} (a reference candidate runs no JavaScript)`);
    try {
      return layOutDocument(engine, id, document, fontMode, stage);
    } catch (error) {
      // A check-layout page whose prose it cannot measure: the elements under test, laid out alone.
      const alone = error instanceof Unsupported && request.authored ? underTestAlone(document, request.authored.scope) : null;
      if (alone === null) throw error;
      const answer = layOutDocument(engine, id, alone.document, fontMode, stage);
      return 'dump' in answer ? { id, dump: answer.dump, roots: alone.roots, placed: false } : answer;
    }
  } catch (error) {
    if (error instanceof Unsupported) return { id, unsupported: error.message };
    return { id, error: `internal_error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** One parsed document through the engine; throws Unsupported. */
function layOutDocument(
  engine: LayoutEngine,
  id: string,
  document: Document,
  fontMode: FontMode,
  stage: StageRunner,
): Extract<CandidateAnswer, { dump: unknown }> {
  {
    const cascaded = stage('cascade', () => cascade(document, USER_AGENT_SHEET));
    const styled = stage('style', () => computeStyles(document, cascaded));
    const { html, page } = stage('boxes', () => {
      const html = buildBoxes(document.root, styled, { keepContents: engine.keepsContents });
      return { html, page: pageOf(document, html, styled.styles) };
    });
    const boxes = stage('layout', () => engine.layout(page, { mode: fontMode, fontFaces: cascaded.fontFaces }));
    const dump = stage('dump', () =>
      buildDump(engine.name, engine.version, document, styled.styles, { boxes, items: flexAndGridItems(html) }),
    );
    return page.roots.length ? { id, dump, roots: [...page.roots] } : { id, dump };
  }
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
