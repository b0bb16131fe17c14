// The shape of a set of Firefox prefs, apart from prefs.ts, which merges the sets: the files that
// define a set import only this, so no set imports the module that imports it.

/** Firefox prefs by name, as user.js writes them. */
export type Prefs = Record<string, string | number | boolean>;
