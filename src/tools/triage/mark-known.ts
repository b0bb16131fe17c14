// `triage --mark-known FINDING --expect FILE`: a finding the user has reported or understood becomes
// a known difference. Its template, verdict and engine go into the known-differences file that
// `campaign --expect` reads (docs/campaign.md, "Known differences"), created when missing, so that
// later campaigns record the cases holding an instance of it as expected, counted apart from the
// findings; and the finding itself is marked known in the journal, so the summary counts it apart.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CampaignError } from '../../campaign/campaign-error.js';
import type { Journal } from '../../campaign/journal/journal.js';
import { findingName } from '../../campaign/journal/triage-summary.js';
import { Expectations } from '../../campaign/loop/expectations.js';
import { parseTemplate } from '../../campaign/triage/template.js';
import { log } from '../../system/log.js';
import { visible } from '../../system/visible-text.js';

interface KnownFile {
  note?: string;
  known: { id: string }[];
}

/** Marks finding `id` known, in the file at `path` and in the journal; resolves with the exit status. */
export async function markKnown(journal: Journal, id: number, path: string, dbPath: string): Promise<number> {
  const name = findingName(id);
  const finding = journal
    .findings()
    .list()
    .find((f) => f.id === id);
  if (!finding) throw new CampaignError(`no finding ${name} in this journal (summary lists them)`);
  if (finding.subject !== 'engines')
    throw new CampaignError(`${name} is candidate ${visible(finding.subject.name)}'s finding; known differences are the engines' own`);
  const extras = parseTemplate(finding.template).extras;
  if (extras.length) throw new CampaignError(`${name}'s template holds ${visible(extras.join(', '))}, which no case is matched by`);
  const label = `--expect ${path}`;
  let file: KnownFile = { note: 'Known differences, for campaign --expect (docs/campaign.md)', known: [] };
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    Expectations.parse(text, label);
    file = JSON.parse(text) as KnownFile;
  }
  // The same template and odd one out always get the same id, so marking it again changes nothing.
  const known = `template-${createHash('sha256')
    .update(`${finding.outlier ?? 'split'}\n${finding.template}`)
    .digest('hex')
    .slice(0, 10)}`;
  if (!file.known.some((e) => e.id === known)) {
    const reduced = (JSON.parse(finding.reduced) as { html?: string }).html ?? finding.reduced;
    file.known.push({
      id: known,
      note: `triage finding ${name} of ${basename(dbPath)}, ${finding.members.length} case(s): ${finding.signature}; reduced: ${reduced.length > 300 ? `${reduced.slice(0, 299)}…` : reduced}`,
      verdict: finding.outlier === null ? 'split' : 'outlier',
      ...(finding.outlier === null ? {} : { engine: finding.outlier }),
      template: finding.template,
    } as KnownFile['known'][number]);
    const text = `${JSON.stringify(file, null, 2)}\n`;
    Expectations.parse(text, label);
    // Written whole under another name, then renamed: a reader never sees half a file.
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
  }
  journal.findings().markKnown(id, known);
  log.info(
    `triage: ${name} is the known difference ${known} in ${visible(path)}; campaigns with --expect ${visible(path)} record its cases as expected`,
  );
  return 0;
}
