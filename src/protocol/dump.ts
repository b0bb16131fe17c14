// The dump as it goes on the wire (JSON in the contract's key order), from the page's walk
// (flat arrays, checked by page-output.ts). Serializing straight from the flat arrays keeps key order exact
// in every engine and avoids building a million small objects for a large document.
import { STYLE_PROPERTIES, type Dump, type EngineName } from './schema.js';
import { JsonText } from './json-text.js';
import type { RawWalk } from './page-output.js';

const STYLE_KEYS = STYLE_PROPERTIES.map((p) => JSON.stringify(p) + ':');
const STYLE_COUNT = STYLE_PROPERTIES.length;

/** JSON for a double at full precision (shortest round-trip form). */
const num = (n: number): string => {
  // A layout box is always finite; a non-finite value would be an engine or walk bug, never a dump.
  if (!Number.isFinite(n)) throw new Error(`a coordinate is ${n}; no dump is produced from a non-finite box`);
  return String(n);
};

function rectJson(values: number[], at: number): string {
  return `{"x":${num(values[at]!)},"y":${num(values[at + 1]!)},"w":${num(values[at + 2]!)},"h":${num(values[at + 3]!)}}`;
}

/** Depth per node from the parent indices (a parent always precedes its children). */
function depthsOf(parents: number[]): number[] {
  const depths = new Array<number>(parents.length);
  for (let i = 0; i < parents.length; i++) {
    const p = parents[i]!;
    depths[i] = p < 0 ? 0 : depths[p]! + 1;
  }
  return depths;
}

/**
 * The contract's dump object, as JSON text: one string built up as it goes, each distinct style
 * value quoted once (a document repeats a few dozen of them across thousands of slots), and made
 * flat before it is kept (a string built by += is a tree of pieces until something reads it, and
 * a case's dumps wait in the worker with hundreds of others: left as trees, they cost Node more
 * than the joins they save).
 */
export function dumpJson(engine: EngineName, engineVersion: string, raw: RawWalk): JsonText<Dump> {
  const depths = depthsOf(raw.parents);
  const quoted = new Map<string, string>();
  let text =
    `{"engine":${JSON.stringify(engine)},"engine_version":${JSON.stringify(engineVersion)},` +
    `"viewport":{"width":${num(raw.viewport[0])},"height":${num(raw.viewport[1])}},"overflowed":${raw.overflowed},"nodes":[`;
  let rectAt = 0;
  for (let i = 0; i < raw.tags.length; i++) {
    text += `${i ? ',' : ''}{"index":${i},"parent":${raw.parents[i]},"tag":${JSON.stringify(raw.tags[i])},"depth":${depths[i]},"bounding":${rectJson(raw.bounding, i * 4)},"rects":[`;
    for (let f = 0; f < raw.rectCounts[i]!; f++, rectAt += 4) text += (f ? ',' : '') + rectJson(raw.rects, rectAt);
    text += '],"style":{';
    for (let s = 0; s < STYLE_COUNT; s++) {
      const value = raw.styles[i * STYLE_COUNT + s]!;
      let json = quoted.get(value);
      if (json === undefined) {
        json = JSON.stringify(value);
        quoted.set(value, json);
      }
      text += (s ? ',' : '') + STYLE_KEYS[s] + json;
    }
    text += '}}';
  }
  text += ']}';
  // Reading a character flattens the string in place (V8): its pieces become garbage at once.
  text.charCodeAt(0);
  return JsonText.mint(text);
}
