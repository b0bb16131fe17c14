// The prose page of the authored tests (test/unit/authored.test.ts, authored-journal.test.ts):
// prose above a flex container (element 3) whose two items (4 and 5) are 100 and 200 px wide.
import type { AuthoredReading } from '../../src/protocol/authored-schema.js';

export const proseReading = (): AuthoredReading => ({
  elements: [
    { index: 3, attrs: { 'data-expected-width': '300' }, values: { offsetWidth: 300 }, offset_parent: 1 },
    {
      index: 4,
      attrs: { 'data-expected-width': '100', 'data-offset-x': '0' },
      values: { offsetWidth: 100, offsetLeft: 0 },
      offset_parent: 3,
    },
    {
      index: 5,
      attrs: { 'data-expected-width': '200', 'data-offset-x': '100', 'data-offset-y': '0' },
      values: { offsetWidth: 200, offsetLeft: 100, offsetTop: 0 },
      offset_parent: 3,
    },
  ] as AuthoredReading['elements'],
  unknown_keys: [],
});

/** A node: tag, parent, border box [x, y, w, h] (none: no box), style beyond display:block, position:static, 0px everywhere. */
export type PageNode = [tag: string, parent: number, box: [number, number, number, number] | null, style?: Record<string, string>];

/** The page as a candidate lays it out with only the container, alone at the origin, its first item `first` px wide. */
export const aloneNodes = (first: number): PageNode[] => [
  ['HTML', -1, null],
  ['BODY', 0, null],
  ['P', 1, null],
  ['DIV', 1, [0, 0, 300, 100], { position: 'relative', display: 'flex' }],
  ['DIV', 3, [0, 0, first, 50]],
  ['DIV', 3, [first, 0, 300 - first, 100]],
];
