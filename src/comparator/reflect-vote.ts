// The reflection vote over the engines of one reflect response. Two engines agree on an
// observation when they read the same probe and both `attr_value` and `idl_value` are equal
// exactly (canonical values are plain JSON, so equal text is equal value); reflection has no
// quantization to tolerate. The result, as JSON:
//
//   verdict       the engines clustered on their whole state (agree = agree on every
//                 observation): "unanimous" exactly when every observation is; "outlier"
//                 when every disagreeing observation names the same outlier; "split"
//                 otherwise (two observations blaming different engines leave no engine
//                 trusted throughout); "insufficient" with fewer than 3 usable engines
//   outlier, majority   as in vote.ts
//   engines       {chromium|firefox|webkit: {status}}: "usable", "error" (with `error`) or "absent"
//   observations  [{index, selector, attr, idl, verdict, outlier, majority, values}] per
//                 observation (the longest state's count); `values` is each usable engine's
//                 {attr_value, idl_value} there (absent when its state has no such observation)
//
// Engines are visited in a fixed order whatever the response's key order. describeObservation is
// one observation's vote in one line, as --pretty and `reflect-corpus` print it.
import type { EngineName } from '../protocol/common.js';
import type { Observation, ObservationVote, ReflectResponse, ReflectVoteResult } from '../protocol/reflect-schema.js';
import { cluster } from './cluster.js';
import { threeWay } from './three-way.js';

export type { ObservationVote, ReflectVoteResult };

export function voteReflect(response: Pick<ReflectResponse, 'states' | 'errors'>): ReflectVoteResult {
  const { states } = response;
  const keyAt = (e: EngineName, i: number) => observationKey(states[e]!.observations[i]);
  const count = Math.max(0, ...Object.values(states).map((s) => s.observations.length));
  // Two engines agree on the whole state when they agree on every observation.
  const vote = threeWay<number[]>(
    (e) => (states[e] === undefined ? undefined : 'usable'),
    response.errors,
    (x, y) => Array.from({ length: count }, (_, i) => i).filter((i) => keyAt(x, i) !== keyAt(y, i)),
    (disagreeing) => disagreeing.length === 0,
  );
  const { usable } = vote;
  // Every observation is reported, agreeing or not, with each engine's values.
  const observations = Array.from({ length: count }, (_, index): ObservationVote => {
    const { verdict, outlier, majority } = cluster(usable, (a, b) => keyAt(a, index) === keyAt(b, index));
    const probe = usable.map((e) => states[e]!.observations[index]).find((o) => o)!;
    const values: ObservationVote['values'] = {};
    for (const e of usable) {
      const seen = states[e]!.observations[index];
      if (seen) values[e] = { attr_value: seen.attr_value, idl_value: seen.idl_value };
    }
    return { index, selector: probe.selector, attr: probe.attr, idl: probe.idl, verdict, outlier, majority, values };
  });
  const { verdict, outlier, majority, engines } = vote;
  return { verdict, outlier, majority, engines, observations };
}

/**
 * Everything that must match, as text: the probe, then both values. A canonical object's keys
 * are sorted, so a response whose keys were reordered on the way still compares equal; a
 * missing observation matches nothing real.
 */
function observationKey(o: Observation | undefined): string {
  if (!o) return 'none';
  const keys = typeof o.idl_value === 'object' && o.idl_value !== null ? Object.keys(o.idl_value).sort() : undefined;
  return JSON.stringify([o.selector, o.attr, o.idl, o.attr_value, o.idl_value], keys);
}

/** `index selector attr[/idl]: verdict`, with each engine's values where they disagree. */
export function describeObservation({ index, selector, attr, idl, verdict, outlier, values }: ObservationVote): string {
  const probe = `${index} ${selector} ${attr}${idl === attr ? '' : `/${idl}`}`;
  if (verdict === 'unanimous') return `${probe}: unanimous`;
  const seen = Object.entries(values).map(([e, v]) => `${e} ${JSON.stringify(v.attr_value)} → ${JSON.stringify(v.idl_value)}`);
  return `${probe}: ${verdict}${outlier ? ` (${outlier})` : ''}; ${seen.join(', ')}`;
}
