// `wpt-import`: web-platform-tests testharness files as trace requests (src/wpt). The requests go
// to stdout as NDJSON, one per converted test, for `campaign --corpus`; each refused test gets one
// line on stderr, and the summary ends there. With --emit, stdout lists what would be done
// instead. Exit status: 0 done (refusals are results), 2 bad usage (no checkout, a path outside it).
import { once } from 'node:events';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Checkout, CheckoutError } from '../wpt/checkout.js';
import { ImportSummary, importTests, type Imported } from '../wpt/import.js';
import { log } from '../system/log.js';
import { visible } from '../system/visible-text.js';
import { exitOnUsageError, usage, UsageError } from './usage.js';

export function registerWptCommand(program: Command): void {
  const command = program
    .command('wpt-import')
    .summary('convert web-platform-tests testharness files into trace requests')
    .description(
      'Reads a web-platform-tests checkout and converts each testharness test under the paths given (relative to the ' +
        "checkout; the whole checkout by default) into a trace request whose id is the test's path: .html/.htm tests, " +
        '.any.js (window scope) and .window.js, with their scripts inlined from the checkout and the files beside them ' +
        'they load served with the trace. Each subtest is one record (its name, its status) and the harness status one ' +
        'more, compared by label. Tests that need what a trace page cannot give (wptserve handlers, other origins, ' +
        'https, testdriver, references, manual steps, workers) are refused, each with one line on stderr. The requests ' +
        'go to stdout as NDJSON, for campaign --corpus. docs/wpt.md has the details.',
    )
    .argument('<checkout>', 'the web-platform-tests checkout')
    .argument('[paths...]', 'files or folders in it')
    .option(
      '--layout',
      'the layout route: check-layout tests and reftest test pages as vote requests, each with the files it loads (site), ' +
        'its wait and its authored expectations; docs/wpt.md, "The layout route"',
    )
    .option('--emit', 'list what would be done, one line per test, instead of writing requests')
    .addHelpText('after', '\nExit status: 0 done (refused tests included); 2 bad usage.');
  command.action(async (dir: string, paths: string[], flags: { emit?: boolean; layout?: boolean }) => {
    process.exitCode = await usage(command, async () => {
      let checkout: Checkout;
      let inTree: string[];
      try {
        checkout = Checkout.open(dir);
        inTree = paths.length ? paths.map((p) => checkout.pathOf(resolve(checkout.root, p))) : [''];
      } catch (error) {
        if (error instanceof CheckoutError) throw new UsageError(error.message);
        throw error;
      }
      const summary = new ImportSummary();
      for (const imported of importTests(checkout, inTree, { layout: flags.layout === true })) {
        summary.add(imported);
        const request = 'converted' in imported ? imported.converted.request : 'layout' in imported ? imported.layout.request : null;
        const line = flags.emit ? planLine(imported) : request === null ? null : JSON.stringify(request);
        if (line !== null && !process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain');
        if (!flags.emit && 'refused' in imported)
          log.info(`wpt-import: refused ${visible(imported.path)}: ${visible(imported.refused.message)}`);
        if (!flags.emit && 'skipped' in imported) log.info(`wpt-import: skipped ${visible(imported.path)}: ${visible(imported.skipped)}`);
      }
      log.info(`wpt-import: ${summary}`);
      return 0;
    });
  });
  exitOnUsageError(command);
}

/** What --emit prints for one test. */
function planLine(imported: Imported): string {
  // A checkout's names are text of someone else's: a line shows them, never acts on them.
  if ('refused' in imported) return visible(`refuse ${imported.path} ${imported.refused.message}`);
  if ('skipped' in imported) return visible(`skip ${imported.path} ${imported.skipped}`);
  if ('layout' in imported) return visible(`convert ${imported.path} (${imported.layout.kind})`);
  const { moved } = imported.converted;
  return visible(`convert ${imported.path}${moved === true ? '' : ` (its main script stays in the page: ${moved})`}`);
}
