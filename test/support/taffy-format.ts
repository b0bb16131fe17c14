// Taffy's generated-test format, as its harness reads it (DioxusLabs/taffy, tests/xml.rs, since
// taffy#926 moved generated tests from Rust to XML), written down here to check an exported test
// against, with a sample written from that shape. The harness finds `viewport`, `input` and
// `expectations` under `<test>`; parses each attribute it knows with Taffy's CSS parser (an
// unknown value panics); builds one node per input element (a leaf's text is Ahem text); and pairs
// the expectations' `node` elements with the input elements one to one, each with x, y, width and
// height. The element types are those of any DOM parser (jsdom's, in the tests).

export interface XmlElement {
  readonly tagName: string;
  readonly children: ArrayLike<XmlElement>;
  getAttributeNames(): string[];
  getAttribute(name: string): string | null;
}

/** A test of the documented shape: a flex row with a fixed child and a growing one, unrounded. */
export const TAFFY_SAMPLE = `<test name="sample_flex_grow" use-rounding="false">
  <viewport width="max-content" height="max-content"/>
  <input>
    <div display="flex" direction="ltr" width="300px" height="100px" padding-left="5px">
      <div display="block" direction="ltr" width="50px"/>
      <text display="block" direction="ltr" flex-grow="1">HH</text>
    </div>
  </input>
  <expectations>
    <node x="0" y="0" width="300" height="100">
      <node x="5" y="0" width="50" height="100"/>
      <node x="55" y="0" width="245" height="100"/>
    </node>
  </expectations>
</test>
`;

const NUMBER = '-?(\\d+\\.?\\d*|\\.\\d+)(e-?\\d+)?';
const words = (...w: string[]) => new RegExp(`^(${w.join('|')})$`);
const LENGTH_PERCENTAGE = new RegExp(`^${NUMBER}(px|%)$`);
const LENGTH_PERCENTAGE_AUTO = new RegExp(`^(${NUMBER}(px|%)|auto)$`);
const DIMENSION = new RegExp(
  `^(${NUMBER}(px|%)|auto|min-content|max-content|fit-content|stretch|content|fit-content\\(${NUMBER}(px|%)\\))$`,
);
const ALIGN = '((safe|unsafe) )?(start|end|flex-start|flex-end|self-start|self-end|center)|baseline|stretch';
const TRACK = `${NUMBER}(px|%|fr)|auto|min-content|max-content|fit-content\\(${NUMBER}(px|%)\\)|minmax\\([^()]+\\)`;
const TRACKS = new RegExp(`^((${TRACK}|repeat\\((\\d+|auto-fill|auto-fit), ?((${TRACK}) ?)+\\)) ?)+$`);
const NUM = new RegExp(`^${NUMBER}$`);

/** Each attribute the harness reads, with what Taffy's parser takes for it. */
const INPUT_ATTRIBUTES: Record<string, RegExp> = {
  display: words('none', 'flex', 'grid', 'block', 'flow-root'),
  direction: words('ltr', 'rtl'),
  'writing-mode': words('horizontal-tb', 'vertical-lr', 'vertical-rl'),
  'box-sizing': words('border-box', 'content-box'),
  'overflow-x': words('visible', 'hidden', 'clip', 'scroll'),
  'overflow-y': words('visible', 'hidden', 'clip', 'scroll'),
  'scrollbar-width': NUM,
  float: words('left', 'right', 'none'),
  clear: words('left', 'right', 'both', 'none'),
  position: words('relative', 'absolute'),
  width: DIMENSION,
  height: DIMENSION,
  'flex-basis': DIMENSION,
  'min-width': LENGTH_PERCENTAGE_AUTO,
  'min-height': LENGTH_PERCENTAGE_AUTO,
  'max-width': LENGTH_PERCENTAGE_AUTO,
  'max-height': LENGTH_PERCENTAGE_AUTO,
  ...Object.fromEntries(
    ['top', 'left', 'bottom', 'right'].flatMap((s) => [
      [s, LENGTH_PERCENTAGE_AUTO],
      [`margin-${s}`, LENGTH_PERCENTAGE_AUTO],
    ]),
  ),
  ...Object.fromEntries(
    ['top', 'left', 'bottom', 'right'].flatMap((s) => [
      [`padding-${s}`, LENGTH_PERCENTAGE],
      [`border-${s}`, LENGTH_PERCENTAGE],
    ]),
  ),
  'row-gap': LENGTH_PERCENTAGE,
  'column-gap': LENGTH_PERCENTAGE,
  'aspect-ratio': NUM,
  'align-items': new RegExp(`^(${ALIGN})$`),
  'align-self': new RegExp(`^(${ALIGN})$`),
  'justify-items': new RegExp(`^(${ALIGN})$`),
  'justify-self': new RegExp(`^(${ALIGN})$`),
  'align-content': new RegExp(`^(${ALIGN}|space-between|space-around|space-evenly)$`),
  'justify-content': new RegExp(`^(${ALIGN}|space-between|space-around|space-evenly)$`),
  'text-align': words('auto', '-webkit-left', '-webkit-right', '-webkit-center'),
  'flex-direction': words('row', 'column', 'row-reverse', 'column-reverse'),
  'flex-wrap': words('nowrap', 'wrap', 'wrap-reverse'),
  'flex-grow': NUM,
  'flex-shrink': NUM,
  'grid-auto-flow': words('row', 'column', 'row dense', 'column dense', 'dense'),
  'grid-template-rows': TRACKS,
  'grid-template-columns': TRACKS,
  'grid-auto-rows': TRACKS,
  'grid-auto-columns': TRACKS,
  ...Object.fromEntries(
    ['grid-row-start', 'grid-row-end', 'grid-column-start', 'grid-column-end'].map((p) => [p, /^(auto|span \d+|-?\d+)$/]),
  ),
};
const NODE_NUMBERS = ['x', 'y', 'width', 'height'];
const NODE_OPTIONAL = ['scroll_width', 'scroll_height', 'resolved-rows', 'resolved-columns'];

const elements = (e: XmlElement) => Array.from(e.children);

/** What keeps `test` (the root element of a parsed file) from running in Taffy's harness: empty when nothing does. */
export function taffyFormatProblems(test: XmlElement): string[] {
  const problems: string[] = [];
  if (test.tagName !== 'test') return [`the root element is <${test.tagName}>, not <test>`];
  if (!/^[a-z_][a-z0-9_]*$/.test(test.getAttribute('name') ?? ''))
    problems.push(`test name ${test.getAttribute('name')}: not a Rust test name`);
  const rounding = test.getAttribute('use-rounding');
  if (rounding !== null && rounding !== 'true' && rounding !== 'false') problems.push(`use-rounding="${rounding}"`);
  const part = (name: string) => {
    const found = elements(test).filter((c) => c.tagName === name);
    if (found.length !== 1) problems.push(`${found.length} <${name}> elements`);
    return found[0];
  };
  const viewport = part('viewport');
  const input = part('input');
  const expectations = part('expectations');
  for (const axis of ['width', 'height']) {
    const v = viewport?.getAttribute(axis);
    if (v !== null && v !== undefined && !new RegExp(`^(${NUMBER}(px)?|max-content|min-content)$`).test(v))
      problems.push(`viewport ${axis}="${v}"`);
  }
  const inputRoot = input && elements(input);
  const expectedRoot = expectations && elements(expectations);
  if (inputRoot?.length !== 1) problems.push('input: not exactly one root element');
  if (expectedRoot?.length !== 1) problems.push('expectations: not exactly one root node');
  if (inputRoot?.length === 1 && expectedRoot?.length === 1) pair(inputRoot[0]!, expectedRoot[0]!, 'root', problems);
  return problems;
}

function pair(input: XmlElement, node: XmlElement, where: string, problems: string[]): void {
  for (const name of input.getAttributeNames()) {
    const grammar = INPUT_ATTRIBUTES[name];
    const value = input.getAttribute(name)!;
    if (!grammar) problems.push(`${where}: attribute ${name} is not one Taffy reads`);
    else if (!grammar.test(value)) problems.push(`${where}: ${name}="${value}" does not parse`);
  }
  if (node.tagName !== 'node') problems.push(`${where}: expectation <${node.tagName}>`);
  for (const name of node.getAttributeNames())
    if (!NODE_NUMBERS.includes(name) && !NODE_OPTIONAL.includes(name)) problems.push(`${where}: node attribute ${name}`);
  for (const name of NODE_NUMBERS)
    if (!NUM.test(node.getAttribute(name) ?? '')) problems.push(`${where}: node ${name}="${node.getAttribute(name)}"`);
  const inputs = elements(input);
  const nodes = elements(node);
  if (inputs.length !== nodes.length) {
    problems.push(`${where}: ${inputs.length} input children, ${nodes.length} expected nodes`);
    return;
  }
  for (const [i, child] of inputs.entries()) pair(child, nodes[i]!, `${where}.${i}`, problems);
}
