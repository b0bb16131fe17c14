// `export --format yoga`: findings in Yoga's own layout. Yoga keeps its fixtures as HTML
// (gentest/fixtures/YG*Test.html: top-level divs, each id a test's name, `data-disabled="true"` to
// skip one) and generates its tests from them in Chrome; the JavaScript ones are
// javascript/tests/generated/YG*Test.test.ts. An export writes both for its findings:
//   - YGBrowserOracleTest.html: each root of each case as the case wrote it, under its test's id,
//     an outlier or split marked in a comment with the engines' builds, a split disabled;
//   - YGBrowserOracleTest.test.ts: a test per root in the generated tests' shape, its nodes styled
//     by the Yoga reference candidate's own mapping of the computed styles (recorded call by call,
//     src/candidate-reference/yoga/style.ts), its expectations the vote's majority rounded as
//     gentest rounds Chrome's (edges to whole pixels), never Chrome's alone: where Chrome is the
//     outlier, gentest would have generated the outlier's layout.
// Yoga lays out flexbox only; text is measured by gentest's own function, which a case's font
// does not follow, so a case with text is refused.
import { Align, BoxSizing, Direction, Display, Edge, FlexDirection, Gutter, Justify, Overflow, PositionType, Wrap } from 'yoga-layout';
import type { Node } from 'yoga-layout';
import { parse, serializeOuter } from 'parse5';
import { childContext, setYogaStyle, type Context } from '../../candidate-reference/yoga/style.js';
import { Unsupported } from '../../candidate-reference/web/unsupported.js';
import { aboutFinding, elementsOf, voteWords, type Finding } from './finding.js';
import { majorityLayout, type Box as Rect, type MajorityNode } from './majority.js';
import { fixtureRoots, type Box } from './web-model.js';

const YOGA_FIXTURE = 'YGBrowserOracleTest';

/** The enum a setter's first argument is a member of. */
const SETTER_ENUMS = {
  setAlignContent: 'Align',
  setAlignItems: 'Align',
  setAlignSelf: 'Align',
  setBoxSizing: 'BoxSizing',
  setDirection: 'Direction',
  setDisplay: 'Display',
  setFlexDirection: 'FlexDirection',
  setFlexWrap: 'Wrap',
  setJustifyContent: 'Justify',
  setOverflow: 'Overflow',
  setPositionType: 'PositionType',
  setMargin: 'Edge',
  setPadding: 'Edge',
  setBorder: 'Edge',
  setPosition: 'Edge',
  setGap: 'Gutter',
} as const;
/** Yoga's enums the setters take, by name: each is a TypeScript enum, which maps its numbers back to its members' names. */
export const YOGA_ENUMS = { Align, BoxSizing, Direction, Display, Edge, FlexDirection, Gutter, Justify, Overflow, PositionType, Wrap };
type EnumName = keyof typeof YOGA_ENUMS;

/** Calls that set what a Yoga node already is (its defaults): left out, as the generated tests leave them out. */
const DEFAULTS = new Set([
  'setDisplay(Display.Flex)',
  'setPositionType(PositionType.Relative)',
  'setBoxSizing(BoxSizing.BorderBox)',
  'setWidth("auto")',
  'setHeight("auto")',
  'setOverflow(Overflow.Visible)',
  'setFlexDirection(FlexDirection.Column)',
  'setFlexWrap(Wrap.NoWrap)',
  'setFlexGrow(0)',
  'setFlexShrink(0)',
  'setFlexBasisAuto()',
  'setJustifyContent(Justify.FlexStart)',
  'setAlignContent(Align.FlexStart)',
  'setAlignItems(Align.Stretch)',
  'setAlignSelf(Align.Auto)',
]);
const isDefault = (call: string) =>
  DEFAULTS.has(call) || /^set(Margin|Padding|Border|Position|Gap)\(\w+\.\w+, 0\)$|\(undefined\)$/.test(call);

export interface YogaTest {
  /** The fixture's entry: a comment and the root's markup. */
  fixture: string;
  /** The JavaScript test, or null for a split (nothing to expect). */
  test: string | null;
}

/** The fixture entries and tests of a finding (one per root of its body), or why it cannot be one. */
export function yogaTests(f: Finding, name: string): { tests: YogaTest[] } | { refused: string } {
  if (f.script !== null) return { refused: 'it has a script; a Yoga fixture is a static tree' };
  const majority = majorityLayout(f);
  if (!majority && f.vote.verdict !== 'split') return { refused: `${voteWords(f.vote)}: no majority to take expectations from` };
  const roots = fixtureRoots(f.html, true);
  if ('refused' in roots) return roots;
  const markup = elementsOf(parse(f.html));
  const tests: YogaTest[] = [];
  try {
    roots.forEach((root, k) => {
      const testName = roots.length > 1 ? `${name}_${k}` : name;
      const comment = majority
        ? `${aboutFinding(f)}; the test's expectations are the majority's: ${majority.engines.join(', ')}`
        : `${aboutFinding(f)}; the engines split, so there is no expectation: disabled`;
      const element = markup[root.box.element!.index]!;
      element.attrs = [{ name: 'id', value: testName }, ...element.attrs.filter((a) => a.name !== 'id')];
      if (!majority) element.attrs.push({ name: 'data-disabled', value: 'true' });
      const lines = [
        `    // ${comment.replace(/\n/g, ' ')}`,
        `    test('${testName}', () => {`,
        '      const config = Yoga.Config.create();',
        '',
      ];
      build(root.box, 'root', lines);
      const direction = root.box.style.direction === 'rtl' ? 'RTL' : 'LTR';
      const size = (v: number | null) => (v === null ? 'undefined' : String(v));
      lines.push(`      root.calculateLayout(${size(root.available.width)}, ${size(root.available.height)}, Direction.${direction});`);
      if (majority) expectations(root.box, 'root', majority.nodes, majority.nodes[root.box.element!.index]!.bounding, null, lines);
      lines.push('    });', '');
      tests.push({
        fixture: `<!-- browser-oracle: ${comment.replace(/--/g, '- -')} -->\n${serializeOuter(element)}\n`,
        test: majority ? lines.map((l) => l.slice(4)).join('\n') : null,
      });
    });
  } catch (error) {
    if (error instanceof Unsupported) return { refused: `Yoga cannot lay it out: ${error.message}` };
    throw error;
  }
  return { tests };
}

/** The fixture file and the test file of every finding's tests. */
export function yogaFiles(tests: YogaTest[]): [string, string][] {
  const header = [
    '// Generated by browser-oracle export --format yoga from the findings of a campaign, in the shape',
    `// of javascript/tests/generated; the fixtures are in gentest/fixtures/${YOGA_FIXTURE}.html.`,
    "import Yoga from 'yoga-layout';",
    `import { ${Object.keys(YOGA_ENUMS).sort().join(', ')} } from 'yoga-layout';`,
    '',
  ];
  const written = tests.filter((t) => t.test !== null).map((t) => t.test!);
  return [
    [`${YOGA_FIXTURE}.html`, tests.map((t) => t.fixture).join('\n')],
    [`${YOGA_FIXTURE}.test.ts`, [...header, ...written].join('\n')],
  ];
}

/** The node `name` for `box` and its children, styled by the reference candidate's mapping, each call as a line. */
function build(box: Box, name: string, lines: string[], context: Context = { parentWrap: 'nowrap', inBlock: false, root: true }): void {
  if (box.children.some((c) => c.text !== undefined))
    throw new Unsupported(`text in ${box.element!.tag} (Yoga's generated tests measure text with their own function)`);
  lines.push(`      const ${name} = Yoga.Node.create(config);`);
  const calls: string[] = [];
  const recorder = new Proxy(
    {},
    {
      get:
        (_, method: string) =>
        (...args: unknown[]) =>
          calls.push(`${method}(${args.map((a, i) => argument(method, i, a)).join(', ')})`),
    },
  ) as Node;
  setYogaStyle(recorder, box, context);
  lines.push(...calls.filter((c) => !isDefault(c)).map((c) => `      ${name}.${c};`));
  box.children.forEach((child, i) => {
    const childName = `${name}_child${i}`;
    lines.push('');
    build(child, childName, lines, childContext(box));
    lines.push(`      ${name}.insertChild(${childName}, ${i});`);
  });
}

/** A setter's argument as source: an enum member by name, a number, a string. */
function argument(method: string, index: number, value: unknown): string {
  const named = index === 0 ? (SETTER_ENUMS as Record<string, EnumName>)[method] : undefined;
  const member = named && typeof value === 'number' ? (YOGA_ENUMS[named] as unknown as Record<number, string>)[value] : undefined;
  if (member !== undefined) return `${named}.${member}`;
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** The majority's boxes as gentest writes Chrome's: edges rounded to whole pixels from the root's origin, positions relative to the parent. */
function expectations(box: Box, name: string, nodes: MajorityNode[], origin: Rect, parent: Rect | null, lines: string[]): void {
  const b = nodes[box.element!.index]!.bounding;
  const left = b.x - origin.x;
  const top = b.y - origin.y;
  const round = (n: number) => Math.round(n) + 0;
  lines.push(
    '',
    `      expect(${name}.getComputedLeft()).toBe(${parent ? round(b.x - parent.x) : 0});`,
    `      expect(${name}.getComputedTop()).toBe(${parent ? round(b.y - parent.y) : 0});`,
    `      expect(${name}.getComputedWidth()).toBe(${round(left + b.w) - round(left)});`,
    `      expect(${name}.getComputedHeight()).toBe(${round(top + b.h) - round(top)});`,
  );
  for (const [i, child] of box.children.entries()) expectations(child, `${name}_child${i}`, nodes, origin, b, lines);
}
