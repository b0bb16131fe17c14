// The launch resolution: from the options a user gave (LaunchOptions, src/protocol/launch-options.ts)
// to what every worker starts with. Their defaults; the checks that refuse, before anything
// starts, what cannot be used (an executable, a font set, a time zone, a locale); and what is
// resolved once for every worker (the checked executables, the C library's locale, the font
// files, the memory budget in bytes, the dump limits). The types on the way derive from one
// another, so a new launch setting is its schema's field, its flag (src/cli/engine-options.ts),
// its default here, and the adapter that reads it from EngineLaunch.
import { availableParallelism } from 'node:os';
import { ENGINE_NAMES } from '../protocol/common.js';
import { ConfigError } from '../protocol/errors.js';
import { isTimeZone } from '../protocol/emulation-schema.js';
import { engineMemoryBytes, type LaunchOptions, type OracleOptions } from '../protocol/launch-options.js';
import { FONT_SETS, fontSetProblem } from '../fonts/font-sets.js';
import { fontconfigFileOf } from '../fonts/fontconfig-file.js';
import { checkExecutables } from '../system/executables.js';
import { compiledLocale } from '../system/locales.js';
import { HOST_OPTIONS, WORKER_OPTIONS, type EngineLaunch } from '../worker-contract/launch.js';
import type { DumpLimits } from '../worker-contract/tasks.js';
import type { FarmOptions } from './engine-farm.js';

/**
 * The defaults the command line shows in --help. One worker per two cores: measured on 2 cores,
 * one worker with two pages per engine beats two workers, since the browsers use the CPU.
 */
export function defaultOptions(): OracleOptions {
  return {
    engines: [...ENGINE_NAMES],
    profile: 'default',
    fonts: 'liberation',
    // Pinned like the fonts: under the machine's LANG (C.UTF-8 here) WebKitGTK's navigator.language was "C".
    locale: 'en-US',
    timezone: 'UTC',
    workers: Math.max(1, Math.floor(availableParallelism() / 2)),
    pages: 2,
    // Measured with the bench's farm on its corpus (cases/s, two rounds): 32 gave 80 and 73, 64 gave
    // 89 and 82, 128 gave 102 and 87. 64 keeps a batch that fails as a whole (each case then run
    // again alone) at half of 128's cost.
    maxBatch: 64,
    // A case leaves a worker only when its slowest engine is done: a window of 2 × pages × max-batch
    // (what it was) left the fastest engine's queue empty while the slowest finished, so its
    // batches shrank to a few cases. docs/benchmarks.md, "Levers", has the figures.
    window: 512,
    timeoutMs: 30_000,
    maxNodes: 50_000,
    maxAnswerBytes: 256 * 1024 * 1024,
    // docs/protocol.md, "Memory": far above what an engine holds idle or on the largest case the
    // suite runs, and three of them still fit a small machine.
    maxEngineMemory: 2 * 1024 * 1024 * 1024,
    browsers: 'auto',
    display: undefined,
    allowMissingEngines: false,
    paths: {},
    extra: {},
  };
}

/** `options` over the defaults; a field left out, or given as undefined, keeps its default. */
export function withDefaults(options: LaunchOptions): OracleOptions {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return { ...defaultOptions(), ...given };
}

/** How big each engine's dump may grow: the answer's byte budget is shared by its engines. */
export function dumpLimits(options: Pick<OracleOptions, 'maxNodes' | 'maxAnswerBytes' | 'engines'>): DumpLimits {
  // A fragment per node on average is already a lot of text; four is a generous ceiling.
  return {
    maxNodes: options.maxNodes,
    maxFragments: 4 * options.maxNodes,
    maxBytes: Math.floor(options.maxAnswerBytes / Math.max(1, options.engines.length)),
  };
}

/** What starting the engines takes: the farm's options, but for the proxy's address, which is the case server's once it has started. */
export type LaunchPlan = Omit<FarmOptions, 'launch'> & { launch: Omit<EngineLaunch, 'proxyUrl'> };

/**
 * Checks `options` and resolves what every worker starts with. A given executable, font set, time
 * zone or locale that cannot be used is a ConfigError naming it; nothing is started either way
 * (a locale not compiled yet is compiled, into a cache of its own).
 */
export async function resolveLaunch(options: OracleOptions): Promise<LaunchPlan> {
  const paths = checkExecutables(options.paths, options.engines);
  const fontProblem = fontSetProblem(FONT_SETS[options.fonts]);
  if (fontProblem) throw new ConfigError(fontProblem);
  if (!isTimeZone(options.timezone))
    throw new ConfigError(`--timezone=${options.timezone}: not an IANA time zone name as ICU spells it (UTC, Asia/Tokyo)`);
  const cLocale = await compiledLocale(options.locale);
  return {
    ...pick(options, [...WORKER_OPTIONS, 'workers', 'window']),
    limits: dumpLimits(options),
    maxEngineMemory: engineMemoryBytes(options.maxEngineMemory, 'maxEngineMemory'),
    // Every option but the host's goes to each adapter as it was given.
    launch: {
      ...omit(options, HOST_OPTIONS),
      paths,
      cLocale,
      fontconfigFile: fontconfigFileOf(options.fonts),
      fontDirs: FONT_SETS[options.fonts].dirs,
    },
  };
}

/** `keys` of `object`. */
const pick = <T extends object, K extends keyof T>(object: T, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, object[key]])) as Pick<T, K>;

/** `object` without `keys`. */
const omit = <T extends object, K extends keyof T>(object: T, keys: readonly K[]) =>
  Object.fromEntries(Object.entries(object).filter(([key]) => !(keys as readonly PropertyKey[]).includes(key))) as Omit<T, K>;
