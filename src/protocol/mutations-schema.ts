// A case's `mutations`: changes made to the document after it has been laid out once, from a small
// closed vocabulary that a layout engine without a script engine can apply to its live tree (an
// engine under test, docs/candidate.md), and that the oracle compiles into a script for the
// browsers (src/page/mutation-script.ts). Elements are named by their index in the document order
// of the original document (a dump's node index); the elements an `insert` adds take the next
// unused indices, in their fragment's document order.
import { Type, type Static } from '@sinclair/typebox';
import { strict } from './common.js';

const Node = (description: string) => Type.Integer({ minimum: 0, description });

/** A property name: a CSS property as the style attribute takes it (lower case, a vendor prefix or a custom property allowed). */
const PROPERTY_PATTERN = '^(--[A-Za-z0-9_-]{1,100}|-?[a-z][a-z0-9-]{0,100})$';
/** A declaration's value, without what would end it or start another (`;`, braces) and without control characters. */
const VALUE_PATTERN = '^[^;{}\\u0000-\\u001f\\u007f]*$';

const StyleMutation = Type.Object(
  {
    op: Type.Literal('style'),
    node: Node('The element whose inline style changes.'),
    property: Type.String({ pattern: PROPERTY_PATTERN, description: 'A CSS property name, as `style.setProperty` takes it.' }),
    value: Type.Union([Type.String({ maxLength: 1000, pattern: VALUE_PATTERN }), Type.Null()], {
      description: 'The value it is set to; null removes the property from the inline style.',
    }),
  },
  { ...strict, title: 'Mutation: set or remove one inline style property' },
);

const AttributeMutation = Type.Object(
  {
    op: Type.Literal('attribute'),
    node: Node('The element whose attribute changes.'),
    name: Type.Union([Type.Literal('class'), Type.Literal('id')], { description: 'An attribute selectors read.' }),
    value: Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], { description: 'Its new value; null removes it.' }),
  },
  { ...strict, title: 'Mutation: set or remove a class or id attribute' },
);

const InsertMutation = Type.Object(
  {
    op: Type.Literal('insert'),
    parent: Node('The element the fragment is inserted into.'),
    position: Type.Integer({
      minimum: 0,
      description: "Among the parent's element children: it goes before the child at this position; their count appends it.",
    }),
    html: Type.String({
      maxLength: 100_000,
      description:
        'One element, with its descendants: tags and attributes from a closed inert set (docs/protocol.md, "Mutations"). Whitespace around it is ignored.',
    }),
  },
  { ...strict, title: 'Mutation: insert an element as a child of an element' },
);

const RemoveMutation = Type.Object(
  { op: Type.Literal('remove'), node: Node('The element removed, with its descendants; not the root.') },
  { ...strict, title: 'Mutation: remove an element' },
);

const TextMutation = Type.Object(
  {
    op: Type.Literal('text'),
    node: Node('The element whose children are replaced by one text.'),
    value: Type.String({ maxLength: 100_000 }),
  },
  { ...strict, title: "Mutation: set an element's text" },
);

const MutationSchema = Type.Union([StyleMutation, AttributeMutation, InsertMutation, RemoveMutation, TextMutation], {
  title: 'Mutation',
});
export type Mutation = Static<typeof MutationSchema>;

export const MutationsSchema = Type.Array(MutationSchema, {
  minItems: 1,
  maxItems: 1000,
  description:
    'Applied in order after the document loads and is laid out, before the walk (docs/protocol.md, "Mutations"); a request has these or a `script`, not both.',
});
