// A report's input built from the recorded geometry responses (test/fixtures/dumps): every
// recording is a case of one campaign, voted, bucketed and summarized by the project's own code;
// each finding is its bucket's example. Screenshots come from the caller. The text-line case
// is shown reduced from a longer original written here, so the sample has a reduced case.
import { summarize, type VerdictCount } from '../../src/campaign/journal/summary.js';
import { bucketOf, invalidSignature, signatureOf } from '../../src/comparator/signature.js';
import { voteGeometry } from '../../src/comparator/vote.js';
import { ENGINE_NAMES, type EngineName } from '../../src/protocol/schema.js';
import type { ReportCase, ReportEngine, ReportInput } from '../../src/report/input.js';
import { response, type FixtureName } from '../fixtures/dumps/load.js';
import { DUMP_REQUESTS, page } from '../fixtures/dumps/requests.js';

/** One engine's screenshot of a request, or null with why (the screenshot op's error). */
export type Shoot = (engine: EngineName, request: { html: string; script?: string }) => Promise<{ png: Uint8Array | null; error?: string }>;

const FIXTURES = Object.keys(DUMP_REQUESTS) as FixtureName[];

/** The original the text-line case is shown reduced from. */
const TEXT_LINE_ORIGINAL = page(`<div style="padding:2px"><p>Hello world</p><span>and more</span></div><div style="height:3px"></div>`);

/** An invalid corpus line, as a campaign records it. */
const INVALID = { id: 'line:14', request: '{"id": "broken", "html": "<p>unclosed', error: 'invalid_json: line 14 is not JSON' };

/** The sample input; `shoot` gives each engine's screenshot of each example. */
export async function sampleReportInput(shoot: Shoot): Promise<ReportInput> {
  const counts: VerdictCount[] = [{ verdict: null, outlier: null, count: 1 }];
  const buckets = [{ signature: invalidSignature(INVALID.error), count: 1, example: INVALID.id }];
  const examples = new Map<string, ReportCase>([
    [
      buckets[0]!.signature,
      { id: INVALID.id, op: null, request: INVALID.request, reduced: null, invalid: INVALID.error, vote: null, engines: {} },
    ],
  ]);
  for (const name of FIXTURES) {
    const recorded = response(name);
    const vote = voteGeometry(recorded);
    counts.push({ verdict: vote.verdict, outlier: vote.outlier, count: 1 });
    const bucket = bucketOf({ op: 'geometry', vote });
    if (!bucket) continue;
    const request = { id: name, ...DUMP_REQUESTS[name] };
    const engines: Partial<Record<EngineName, ReportEngine>> = {};
    for (const e of ENGINE_NAMES) {
      const { png, error } = await shoot(e, request);
      engines[e] = {
        ...(recorded.dumps[e] ? { dump: recorded.dumps[e] } : {}),
        ...(recorded.errors?.[e] ? { error: recorded.errors[e] } : {}),
        screenshot: png,
        ...(error ? { screenshotError: error } : {}),
      };
    }
    const signature = signatureOf(bucket);
    const reduced = name === 'text-line' ? { request: JSON.stringify(request), signature } : null;
    const original = reduced ? { ...request, html: TEXT_LINE_ORIGINAL } : request;
    buckets.push({ signature, count: 1, example: name });
    examples.set(signature, { id: name, op: 'geometry', request: JSON.stringify(original), reduced, invalid: null, vote, engines });
  }
  const versions = Object.fromEntries(ENGINE_NAMES.map((e) => [e, response('agree').dumps[e]!.engine_version]));
  return {
    summary: summarize(counts, 0, buckets),
    runs: [
      {
        command: ['browser-oracle', 'campaign', '--corpus', 'fixtures.ndjson', '--db', 'run.sqlite'],
        engines: [...ENGINE_NAMES],
        versions,
        fonts: 'liberation',
        startedAt: '2025-01-01T00:00:00.000Z',
        endedAt: '2025-01-01T00:00:05.000Z',
      },
    ],
    examples,
    generatedAt: '2025-01-01T00:00:06.000Z',
  };
}
