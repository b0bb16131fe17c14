// tinybench micro-benchmarks of the paths every case takes outside the browsers.
import { Bench } from 'tinybench';
import { pack, unpack } from 'msgpackr';
import { parseRequestLine } from '../src/protocol/validate.js';
import { dumpJson } from '../src/protocol/dump.js';
import type { RawWalk } from '../src/protocol/page-output.js';
import { ENGINE_NAMES, type EngineName } from '../src/protocol/schema.js';
import type { AnswerFields } from '../src/protocol/ops.js';
import { layoutCorpus } from '../test/support/layout-corpus.js';

/** `walks`: real walks recorded from the engines by the naive run, keyed by case id. */
export async function microBenchmarks(walks: Map<string, Partial<Record<EngineName, RawWalk>>>) {
  const [largestId, largest] = [...walks].sort(([, a], [, b]) => b.chromium!.tags.length - a.chromium!.tags.length)[0]!;
  const request = JSON.stringify({ id: largestId, html: layoutCorpus().find((c) => c.id === largestId)!.html });
  const result: AnswerFields<'geometry'> = {
    dumps: Object.fromEntries(ENGINE_NAMES.map((e) => [e, dumpJson(e, '1.0', largest[e]!)])),
    timing: Object.fromEntries(ENGINE_NAMES.map((e) => [e, 1])),
  };
  const nodes = largest.chromium!.tags.length;
  const bench = new Bench({ time: 400 });
  bench
    .add(`validate a request line (${request.length} B)`, () => {
      parseRequestLine(request);
    })
    .add(`msgpack round trip, three dumps of ${nodes} nodes`, () => {
      unpack(new Uint8Array(pack(result)));
    })
    .add(`serialize one dump of ${nodes} nodes to JSON`, () => {
      dumpJson('chromium', '1.0', largest.chromium!);
    });
  await bench.run();
  return bench.tasks.map((t) => {
    if (t.result.state !== 'completed') throw new Error(`${t.name}: ${t.result.state}`);
    return {
      path: t.name,
      'ops/s': Math.round(t.result.throughput.mean),
      'mean µs': Number((t.result.latency.mean * 1000).toFixed(1)),
    };
  });
}
