// Logical properties, which a browser maps to physical ones as it cascades, by the element's own
// writing mode and direction. In the horizontal writing mode (the only one the candidates lay
// out: the engines refuse any other on a box), the inline axis runs left to right, or right to
// left under `direction: rtl`, and the block axis runs from the top. Logical and physical
// properties of one side compete as one: the declaration that wins the cascade sets it (cascade.ts).
import type { Property } from './longhands.js';

/** The sides of the flow, each as the physical side it is left to right and right to left. */
const FLOW: Record<string, readonly [ltr: string, rtl: string]> = {
  'inline-start': ['left', 'right'],
  'inline-end': ['right', 'left'],
  'block-start': ['top', 'top'],
  'block-end': ['bottom', 'bottom'],
};
export const FLOW_SIDES = Object.keys(FLOW);

/** Each logical longhand: the physical longhand it sets, left to right and right to left. */
export const LOGICAL: Readonly<Record<string, readonly [ltr: Property, rtl: Property]>> = Object.fromEntries([
  ...Object.entries(FLOW).flatMap(([flow, sides]) =>
    [
      (side: string) => [`margin-${flow}`, `margin-${side}`],
      (side: string) => [`padding-${flow}`, `padding-${side}`],
      (side: string) => [`border-${flow}-width`, `border-${side}-width`],
      (side: string) => [`border-${flow}-style`, `border-${side}-style`],
      (side: string) => [`inset-${flow}`, side],
    ].map((name) => [name(sides[0])[0], sides.map((side) => name(side)[1])]),
  ),
  ...['', 'min-', 'max-'].flatMap((limit) => [
    [`${limit}inline-size`, [`${limit}width`, `${limit}width`]],
    [`${limit}block-size`, [`${limit}height`, `${limit}height`]],
  ]),
]);
