// The case's boxes as the reference candidates read a document (src/candidate-reference/web):
// parse5, the cascade over the candidates' user-agent sheet, computed values, the box tree and the
// page around it. The Taffy and Yoga exports write their fixtures' styles from these computed
// values, so an exported fixture says what the reference candidates lay out; whatever that model
// refuses (an `Unsupported`) is a case those exports refuse, with its reason.
import { buildBoxes, layoutChildren, type Box } from '../../candidate-reference/web/boxes.js';
import { cascade } from '../../candidate-reference/web/cascade.js';
import { parseDocument } from '../../candidate-reference/web/document.js';
import { pageOf, type Page } from '../../candidate-reference/web/page.js';
import { computeStyles, type Style } from '../../candidate-reference/web/style.js';
import { Unsupported } from '../../candidate-reference/web/unsupported.js';
import { USER_AGENT_SHEET } from '../../candidate-reference/web/user-agent.js';
import { VIEWPORT } from '../../protocol/common.js';

export type { Box, Style };

/** A root of the fixture: a box the body holds, and the space its layout is given (null: max-content). */
export interface FixtureRoot {
  box: Box;
  available: { width: number | null; height: number | null };
}

/**
 * The body's element boxes as fixture roots, or why the case has none. A fixture's root sits at
 * the origin of the space it is given (Taffy's and Yoga's harnesses place it there), so a root
 * with margins or insets is refused; a root in flow gets the body's content width, an absolutely
 * positioned one the viewport, or no space at all when nothing of it depends on its container
 * (sized by its content, as those harnesses lay out their fixtures).
 */
export function fixtureRoots(html: string, keepContents: boolean): FixtureRoot[] | { refused: string } {
  let page: Page;
  let document: ReturnType<typeof parseDocument>;
  try {
    document = parseDocument(html);
    const styled = computeStyles(document, cascade(document, USER_AGENT_SHEET));
    page = pageOf(document, buildBoxes(document.root, styled, { keepContents }), styled.styles);
  } catch (error) {
    if (error instanceof Unsupported) return { refused: `the reference candidates' web model does not take it: ${error.message}` };
    throw error;
  }
  const roots: FixtureRoot[] = [];
  for (const box of layoutChildren(page.body)) {
    if (!box.element) return { refused: 'text directly in the body' };
    const s = box.style;
    const sides = ['top', 'right', 'bottom', 'left'] as const;
    if (sides.some((side) => !zero(s[`margin-${side}`])))
      return { refused: `the root ${box.element.tag} has margins: a fixture's root sits at the origin of its space` };
    const positioned = s.position === 'absolute' || s.position === 'fixed';
    const placed = positioned
      ? s.right === 'auto' && s.bottom === 'auto' && (s.top === 'auto' || zero(s.top)) && (s.left === 'auto' || zero(s.left))
      : s.position === 'static' || sides.every((side) => s[side] === 'auto' || zero(s[side]));
    if (!placed) return { refused: `the root ${box.element.tag} is placed by insets: a fixture's root sits at the origin of its space` };
    if (!positioned) {
      const e = page.bodyEdges;
      const width = VIEWPORT.width - e.margin[1] - e.margin[3] - e.border[1] - e.border[3] - e.padding[1] - e.padding[3];
      roots.push({ box, available: { width, height: null } });
      continue;
    }
    const own = [s.width, s.height, s['min-width'], s['min-height'], s['max-width'], s['max-height']];
    const byContent = own.every((v) => v === 'auto' || v === 'none' || (typeof v === 'object' && 'unit' in v && v.unit === 'px'));
    roots.push({ box, available: byContent ? { width: null, height: null } : { ...VIEWPORT } });
  }
  return roots.length ? roots : { refused: 'the body holds no element' };
}

const zero = (v: unknown) => typeof v === 'object' && v !== null && 'n' in v && (v as { n: number }).n === 0;
