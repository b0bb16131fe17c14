// A trace as an engine answers one, for unit tests of the trace compare and vote: only the
// records (and what a test adds) differ from one to the next.
import type { EngineName } from '../../src/protocol/common.js';
import type { Trace, TraceRecord } from '../../src/protocol/trace-schema.js';

/** `engine`'s trace of `records`, on a secure origin, not timed out, with `extra` fields over it. */
export function traceFixture(engine: EngineName, records: TraceRecord[], extra: Partial<Trace> = {}): Trace {
  return {
    engine,
    engine_version: '1',
    profile: 'default',
    origin: 'http://localhost:1',
    is_secure_context: true,
    timed_out: false,
    records,
    ...extra,
  };
}
