// A case by its content (its html and mutations, hashed): what the stale candidate logs, since the
// lines a candidate reads carry the oracle's ids, not the cases'.
import { createHash } from 'node:crypto';

export const caseKey = (html: string, mutations: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([html, mutations]))
    .digest('hex');
