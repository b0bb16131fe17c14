// A `report` session: one self-contained HTML page of a campaign journal (src/report), with each
// bucket's example pictured by the screenshot op on an engine farm started in this process. The
// journal records the report written, so `summary` and `campaign` can say where it is.
import { writeFileSync } from 'node:fs';
import type { Journal } from '../../campaign/journal/journal.js';
import type { OracleOptions, OracleService } from '../../coordinator/oracle-service.js';
import { renderReport } from '../../report/render.js';
import { reportInput, type Shots } from '../../report/from-journal.js';
import { log } from '../../system/log.js';
import { withEngines } from '../engine-session.js';

/** Writes the report to `path`; resolves with the exit status (0 written, 1 an engine did not launch). */
export async function writeReport(journal: Journal, path: string, options: OracleOptions): Promise<number> {
  // The engines' buckets and the latest candidate's: a campaign whose engines agree everywhere may hold the candidate's alone.
  const summary = journal.summary();
  const buckets = summary.buckets.length + (summary.candidate?.buckets.length ?? 0);
  // Nothing to picture: no engine needs to start.
  if (!buckets) return write(journal, path, buckets, undefined, options);
  return withEngines({ tool: 'report', options, notDone: 'nothing was written' }, (oracle) =>
    write(journal, path, buckets, oracle, options),
  );
}

/** The report of the journal's `buckets`, pictured on `oracle` (undefined when there is no bucket). */
async function write(
  journal: Journal,
  path: string,
  buckets: number,
  oracle: OracleService | undefined,
  options: OracleOptions,
): Promise<number> {
  log.info(`report: ${buckets} bucket(s); taking their examples' screenshots`);
  let shots = 0;
  const input = await reportInput(
    journal,
    async (request) => {
      // In process, the answer's images are still bytes: base64 is only for a line on stdout.
      const answer = (await oracle!.run('screenshot', request)).answer as Shots;
      shots += Object.keys(answer.images).length;
      return answer;
    },
    new Date().toISOString(),
    // A screenshot is never batched: one per page, and as many again waiting.
    oracle ? 2 * options.workers * options.pages : 1,
  );
  writeFileSync(path, renderReport(input));
  journal.addReport(path, buckets);
  log.info(`report: wrote ${path} (${buckets} bucket(s), ${shots} screenshot(s))`);
  process.stdout.write(`${path}\n`);
  return 0;
}
