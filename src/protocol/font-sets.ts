// The names of the font sets an oracle can give its engines. They are wire vocabulary (a
// flag value, and what `ping` reports), so they live here; where each set's files are is
// src/fonts/font-sets.ts.

/** `liberation`: the Liberation fonts, metric-compatible with Times, Arial and Courier. `square`: the generated one-em-square font. */
export const FONT_SET_NAMES = ['liberation', 'square'] as const;
export type FontSetName = (typeof FONT_SET_NAMES)[number];
