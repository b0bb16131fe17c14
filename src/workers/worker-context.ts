// What every task runner in a worker has at hand: the engines it runs, and the run's settings.
import type { DumpLimits, WorkerConfig } from '../worker-contract/tasks.js';
import type { EngineName } from '../protocol/schema.js';
import { STYLE_PROPERTIES } from '../protocol/schema.js';
import type { WalkOptions } from '../page/walk.js';
import type { EngineHost } from './host/engine-host.js';
import { SCRIPT_CAPABLE_SELECTOR } from './host/fast-path.js';

export interface WorkerContext {
  hosts: Map<EngineName, EngineHost>;
  config: WorkerConfig;
  /** What every walk of this run is told (its load time aside). */
  walk: WalkOptions;
}

export function workerContext(hosts: Map<EngineName, EngineHost>, config: WorkerConfig): WorkerContext {
  return { hosts, config, walk: walkOptions(config.limits) };
}

/** What a walk is told, under `limits`. */
export function walkOptions({ maxNodes, maxFragments, maxBytes }: DumpLimits): WalkOptions {
  return {
    styleProperties: STYLE_PROPERTIES,
    scriptCapableSelector: SCRIPT_CAPABLE_SELECTOR,
    maxNodes,
    maxFragments,
    maxBytes,
    loadMs: null,
  };
}
