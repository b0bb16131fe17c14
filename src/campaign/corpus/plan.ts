// A campaign's corpus, from where the command line says its cases come: the generator, or a corpus
// (an NDJSON file, a folder of .html files, or - for stdin: corpus.ts reads them). It is opened,
// and its options checked, before any engine starts; a generated corpus is made again once the
// candidate, if any, has said what it supports, so that the generator keeps inside it.
import type { DumpSource } from '../../candidate-client/source.js';
import { CampaignError } from '../campaign-error.js';
import type { GenerateOptions } from '../generator/generator.js';
import { openCorpus, type Corpus } from './corpus.js';
import { generatedCorpus } from './generated-corpus.js';

/** Where the cases come from: the generator's options, or a corpus's path. */
export type CorpusSource = { generate: GenerateOptions } | { path: string };

/** The corpus for the candidate that will answer beside the engines (undefined: none). */
export type CorpusPlan = (candidate: DumpSource | undefined) => Corpus;

/** Opens the corpus, or checks the generator's options; a CampaignError (or a RangeError naming an option) when it cannot be. */
export async function planCorpus(source: CorpusSource): Promise<CorpusPlan> {
  if ('path' in source) {
    const opened = await openCorpus(source.path);
    return () => opened;
  }
  const { generate } = source;
  const plain = generatedCorpus(generate);
  return (candidate) => (candidate ? generatedCorpus(insideCandidate(generate, candidate)) : plain);
}

/**
 * The generator's options kept inside what a candidate supports: its `supports` (when its ping
 * gave them), and no text, script or mutations it would refuse whole. A CampaignError names the flag.
 */
export function insideCandidate(options: GenerateOptions, candidate: Pick<DumpSource, 'name' | 'supports'>): GenerateOptions {
  const { supports, name } = candidate;
  if (!supports) return options;
  if (options.script && !supports.script) throw new CampaignError(`--script: candidate ${name} runs no script`);
  if (options.mutations && !supports.mutations)
    throw new CampaignError(`--mutations: candidate ${name} does not declare supports.mutations (it applies no mutations)`);
  if (options.text && !supports.text.includes('*')) {
    const families = supports.text.length ? `only in ${supports.text.join(', ')}` : 'no text';
    throw new CampaignError(
      `--text: candidate ${name} measures ${families} (a reference candidate measures any family under --fonts=square)`,
    );
  }
  return { ...options, supports };
}
