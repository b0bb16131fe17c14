// The relayout check as it travels in a geometry or vote answer: one engine held to itself, the
// walk of the document as the page had it laid out against a walk after a layout from scratch. The
// schema is the type the comparator returns (src/comparator/relayout.ts).
import { Type, type Static } from '@sinclair/typebox';
import { literalUnion, Rect, STYLE_PROPERTIES, strict } from './common.js';
import { DivergenceSchema, FAILURE_KINDS, SummarySchema } from './vote-schema.js';

const RELAYOUT_VERDICTS = ['pass', 'fail', 'parse_divergence'] as const;

const Boxes = (description: string) => Type.Object({ bounding: Rect, rects: Type.Array(Rect) }, { ...strict, description });

const StyleChangeSchema = Type.Object(
  { property: literalUnion(STYLE_PROPERTIES), walked: Type.String(), fresh: Type.String() },
  { ...strict, description: 'A computed value that differs between the two walks (px lengths within 1/60 px count as equal).' },
);

const RelayoutNodeSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    tag: Type.String(),
    parent: Type.Integer({ minimum: -1, description: "The node's parent index, -1 for the root." }),
    kinds: Type.Array(literalUnion(FAILURE_KINDS), { description: 'How the node’s geometry differs between the two walks.' }),
    styles: Type.Array(StyleChangeSchema, { description: 'In contract order.' }),
    walked: Boxes('The node’s boxes as the page had them laid out.'),
    fresh: Boxes('The node’s boxes after the layout from scratch.'),
  },
  strict,
);

export const RelayoutResultSchema = Type.Object(
  {
    verdict: literalUnion(
      RELAYOUT_VERDICTS,
      'pass: the layout from scratch gives every box the page had, within 1/60 px; fail: it does not; parse_divergence: the two walks saw different trees.',
    ),
    summary: SummarySchema,
    divergence: Type.Optional(DivergenceSchema),
    nodes: Type.Array(RelayoutNodeSchema, { description: 'Every node whose geometry differs, in node order, with both walks of it.' }),
  },
  { ...strict, description: 'See docs/protocol.md, "The relayout check".' },
);
export type RelayoutResult = Static<typeof RelayoutResultSchema>;
export type RelayoutNode = Static<typeof RelayoutNodeSchema>;
