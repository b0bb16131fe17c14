// `wpt-parity`: the two journals read, their configurations held to be one, compared, printed.
// Exit status: 0; 1 when --min is given and the ratio is below it (or nothing was paired);
// a CampaignError (a file that is no journal, two configurations) is the command line's exit 2.
import { CampaignError } from '../../campaign/campaign-error.js';
import { log } from '../../system/log.js';
import { printWhole } from '../../system/stdout.js';
import { compareJournals, configDifference } from './parity.js';
import { readParityJournal } from './read.js';
import { renderParity } from './render.js';

export interface ParityOptions {
  layout: string;
  harness: string;
  json: boolean;
  /** The least agreeing share (0 to 1) for exit status 0. */
  min?: number;
}

export async function runParity(o: ParityOptions): Promise<number> {
  const layout = readParityJournal(o.layout, 'layout');
  const harness = readParityJournal(o.harness, 'harness');
  const difference = configDifference(layout, harness);
  if (difference) throw new CampaignError(`the journals come from different oracle configurations (${difference})`);
  const result = compareJournals(layout, harness);
  // Two journals given the other way round, or of other corpora, compare nothing: say why rather than print zeros alone.
  if (result.files.layout === 0) log.warn(`wpt-parity: ${o.layout} holds no check-layout case (wpt-import --layout makes them)`);
  else if (result.files.paired === 0)
    log.warn(`wpt-parity: ${o.harness} holds no trace of the layout journal's files (wpt-import without --layout makes them)`);
  await printWhole(o.json ? `${JSON.stringify(result)}\n` : renderParity(result));
  if (o.min === undefined) return 0;
  if (result.ratio === null) {
    log.info(`wpt-parity: no (file, engine) pair to compare, so nothing meets --min ${o.min}`);
    return 1;
  }
  if (result.ratio >= o.min) return 0;
  log.info(`wpt-parity: ${result.agreeing}/${result.pairs} = ${result.ratio.toFixed(4)} agree, below --min ${o.min}`);
  return 1;
}
