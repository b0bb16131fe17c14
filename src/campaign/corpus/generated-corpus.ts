// The generator as a corpus (`campaign --generate N --seed S`). Each case is the item its
// `--emit` line would be read back as: same id, same text, same hash, so a campaign over the
// generator and one over its emitted NDJSON are the same cases in a journal, and either can
// resume the other.
import { contentHash } from './case-hash.js';
import type { Corpus, CorpusItem } from './corpus.js';
import { requestLine } from '../generator/emit.js';
import { generateCases, requestOf, type GeneratedCase, type GenerateOptions } from '../generator/generator.js';

/** Cases 0 … count − 1 of the seed as a corpus; bad options throw here (a RangeError naming the option). */
export function generatedCorpus(options: GenerateOptions): Corpus {
  // generateCases checks its options when called, before the first case is drawn.
  generateCases(options);
  return {
    count: async () => options.count,
    items: async function* () {
      for (const generated of generateCases(options)) yield itemOf(generated);
    },
  };
}

function itemOf(generated: GeneratedCase): CorpusItem {
  const request = requestOf(generated);
  return { ok: true, id: request.id, hash: contentHash(request), given: requestLine(generated), request };
}
