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
// Engines are visited in a fixed order whatever the response's key order.
import { ENGINE_NAMES, type EngineName, type ReflectResponse } from '../protocol/schema.js';
import type { Observation } from '../protocol/reflect-schema.js';
import { cluster, type ClusterVerdict } from './cluster.js';
import type { EngineStatus } from './vote.js';

export interface ObservationVote {
  index: number;
  selector: string;
  attr: string;
  idl: string;
  verdict: ClusterVerdict;
  outlier: EngineName | null;
  majority: EngineName[];
  values: Partial<Record<EngineName, Pick<Observation, 'attr_value' | 'idl_value'>>>;
}

export interface ReflectVoteResult {
  verdict: ClusterVerdict;
  outlier: EngineName | null;
  majority: EngineName[];
  engines: Record<EngineName, EngineStatus>;
  observations: ObservationVote[];
}

export function voteReflect(response: Pick<ReflectResponse, 'states' | 'errors'>): ReflectVoteResult {
  const engines = Object.fromEntries(ENGINE_NAMES.map((e) => [e, statusOf(e, response)])) as Record<EngineName, EngineStatus>;
  const usable = ENGINE_NAMES.filter((e) => engines[e].status === 'usable');
  const states = usable.map((e) => response.states[e]!);
  const count = Math.max(0, ...states.map((s) => s.observations.length));
  const keyAt = (e: EngineName, i: number) => observationKey(response.states[e]!.observations[i]);
  const observations = Array.from({ length: count }, (_, index): ObservationVote => {
    const { verdict, outlier, majority } = cluster(usable, (a, b) => keyAt(a, index) === keyAt(b, index));
    const probe = states.find((s) => s.observations[index])!.observations[index]!;
    const values: ObservationVote['values'] = {};
    for (const e of usable) {
      const seen = response.states[e]!.observations[index];
      if (seen) values[e] = { attr_value: seen.attr_value, idl_value: seen.idl_value };
    }
    return { index, selector: probe.selector, attr: probe.attr, idl: probe.idl, verdict, outlier, majority, values };
  });
  const disagreeing = (a: EngineName, b: EngineName) => observations.some(({ index }) => keyAt(a, index) !== keyAt(b, index));
  const { verdict, outlier, majority } = cluster(usable, (a, b) => !disagreeing(a, b));
  return { verdict, outlier, majority, engines, observations };
}

function statusOf(engine: EngineName, response: Pick<ReflectResponse, 'states' | 'errors'>): EngineStatus {
  const error = response.errors?.[engine];
  if (error !== undefined) return { status: 'error', error };
  return { status: response.states[engine] === undefined ? 'absent' : 'usable' };
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
