// summary's result files made from a journal: the JUnit report and a wptreport.json, each read
// whole before it is returned, so that a journal that turns out damaged halfway prints nothing.
import { basename } from 'node:path';
import { ENGINE_NAMES, type EngineName } from '../../protocol/schema.js';
import { CampaignError } from '../campaign-error.js';
import type { Journal, RunRecord } from '../journal/journal.js';
import { junitXml } from './junit.js';
import { candidateResult, engineResult, wptResults, type WptReport } from './wptreport.js';

/** What the product is called on wpt.fyi, for each engine (WebKit here is WebKitGTK's MiniBrowser). */
const WPT_PRODUCTS: Record<EngineName, string> = { chromium: 'chromium', firefox: 'firefox', webkit: 'webkitgtk' };

/** The corpus a journal's runs read: the last run's --corpus, by its file or folder name, or the generator's seed. */
export function corpusName(runs: RunRecord[]): string {
  const command = runs.at(-1)?.command ?? [];
  const flag = (name: string) => {
    const at = command.findIndex((w) => w === name || w.startsWith(`${name}=`));
    if (at < 0) return undefined;
    return command[at]!.includes('=') ? command[at]!.slice(name.length + 1) : command[at + 1];
  };
  const corpus = flag('--corpus');
  if (corpus !== undefined)
    return corpus === '-' ? 'stdin' : basename(corpus.replace(/\/+$/, '')).replace(/\.(nd)?json(l)?$/, '') || 'corpus';
  const seed = flag('--seed');
  return seed === undefined ? 'corpus' : `generated-${seed}`;
}

/** The journal as a JUnit XML report (junit.ts). */
export function junitReport(journal: Journal): string {
  const rows = journal.rows();
  const who = journal.latestCandidate();
  const builds = rows.engineBuilds();
  const properties: [string, string][] = ENGINE_NAMES.filter((e) => builds[e]).map((e) => [e, builds[e]!.join(', ')]);
  if (who) properties.push(['candidate', `${who.name} ${who.version}`]);
  return junitXml({ name: corpusName(journal.runs()), timestamp: rows.span().start, properties }, rows.cases(who));
}

/** One engine's (or the candidate's) side of the journal as a wptreport (wptreport.ts). */
export function wptReport(journal: Journal, of: EngineName | 'candidate'): WptReport {
  const rows = journal.rows();
  const who = journal.latestCandidate();
  const span = rows.span();
  const times = {
    ...(span.start ? { time_start: Date.parse(span.start) } : {}),
    ...(span.end ? { time_end: Date.parse(span.end) } : {}),
  };
  const fonts = journal.runs().at(-1)?.fonts;
  const runInfo = (product: string, version: string) => ({
    product,
    browser_version: version,
    os: process.platform,
    ...(fonts ? { font_set: fonts } : {}),
  });
  if (of === 'candidate') {
    if (!who) throw new CampaignError('--wptreport candidate: no candidate was judged in this journal');
    return { results: wptResults([...rows.cases(who)], candidateResult), run_info: runInfo(who.name, who.version), ...times };
  }
  const builds = rows.engineBuilds()[of];
  if (!builds) throw new CampaignError(`--wptreport ${of}: ${of} answered no case of this journal`);
  const outcomes = rows.engineRows(of);
  return {
    results: wptResults([...rows.cases(who)], (row) => engineResult(row, of, outcomes.get(row.seq))),
    run_info: runInfo(WPT_PRODUCTS[of], builds.join(', ')),
    ...times,
  };
}
