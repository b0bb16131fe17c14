// A case's content hash: what identifies the case apart from the name the corpus gave it, so a
// journal can tell "already recorded" (same id, same content) from "same id, new content".

import { createHash } from 'node:crypto';

/**
 * sha256 (hex) of the canonical JSON of `value`: object keys sorted at every level, and a
 * top-level `id` left out (the id is the case's name, not its content). A string (the text of a
 * corpus line that is not a request) is hashed as its JSON string.
 */
export function contentHash(value: unknown): string {
  const content = isObject(value) ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id')) : value;
  return createHash('sha256').update(JSON.stringify(content, sortedKeys)).digest('hex');
}

function sortedKeys(_key: string, value: unknown): unknown {
  return isObject(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
