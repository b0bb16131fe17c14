// The settings an oracle is launched with, in one schema: the options of the library's
// `Oracle.launch`, the fields of a config file (browser-oracle.config.json) and, for the
// executables, what `ping` reports. Every field is optional; what is left out takes its default.
import { Type, type Static, type TOptional, type TString } from '@sinclair/typebox';
import { EngineNameSchema, literalUnion, ProfileNameSchema, strict, type EngineName } from './common.js';
import { ConfigError } from './errors.js';
import { FONT_SET_NAMES } from './font-sets.js';
import { formatSize, parseSize, SIZE_PATTERN } from './sizes.js';

export const BROWSER_SOURCES = ['auto', 'system', 'bundled'] as const;
export type BrowserSource = (typeof BROWSER_SOURCES)[number];

const Path = (description: string) => Type.String({ minLength: 1, description });

/**
 * The executables an oracle may be given instead of the engines' own builds: the engine each
 * belongs to, its flag, what it is (the config file's schema) and what its flag does (--help).
 */
export const EXECUTABLES = {
  chromium: {
    engine: 'chromium',
    flag: '--chromium',
    description: 'A Chromium (or Chrome) executable, driven over CDP.',
    help: 'run this Chromium (or Chrome) executable',
  },
  firefox: {
    engine: 'firefox',
    flag: '--firefox',
    description: 'A Firefox executable, driven over WebDriver BiDi.',
    help: 'run this Firefox executable',
  },
  webkitDriver: {
    engine: 'webkit',
    flag: '--webkit-driver',
    description: "WebKitGTK's WebDriver server (WebKitWebDriver).",
    help: 'run this WebKitGTK WebDriver server (WebKitWebDriver)',
  },
  miniBrowser: {
    engine: 'webkit',
    flag: '--minibrowser',
    description: "WebKitGTK's MiniBrowser, which the WebDriver server starts.",
    help: 'have the WebDriver server start this MiniBrowser',
  },
} as const satisfies Record<string, { engine: EngineName; flag: string; description: string; help: string }>;
export type ExecutableKey = keyof typeof EXECUTABLES;

export const ExecutablesSchema = Type.Object(
  Object.fromEntries(Object.entries(EXECUTABLES).map(([key, { description }]) => [key, Type.Optional(Path(description))])) as {
    [K in ExecutableKey]: TOptional<TString>;
  },
  { ...strict, description: 'Executables used instead of the bundled or system builds.' },
);
export type Executables = Static<typeof ExecutablesSchema>;

const LaunchExtrasSchema = Type.Object(
  {
    chromiumArgs: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { description: "Command-line switches added after the oracle's own." }),
    ),
    firefoxPrefs: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
        description: "about:config preferences, set over the oracle's own.",
      }),
    ),
    miniBrowserArgs: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { description: "MiniBrowser switches (WebKitSettings) added after the oracle's own." }),
    ),
  },
  { ...strict, description: 'Launch arguments and preferences per engine, added to what the oracle and its profile set.' },
);
export type LaunchExtras = Static<typeof LaunchExtrasSchema>;

/** The smallest memory budget: near it, an idle Firefox with two pages (about 400 MiB) would already pass it (docs/protocol.md, "Memory"). */
export const MIN_ENGINE_MEMORY = 512 * 1024 * 1024;

/** The budget `value` (a number of bytes, or a size such as "2GiB") names; a ConfigError when it is not one, or is below the least. */
export function engineMemoryBytes(value: number | string, source: string): number {
  const bytes = typeof value === 'number' ? value : parseSize(value);
  if (bytes === undefined || !Number.isSafeInteger(bytes))
    throw new ConfigError(`${source}: ${JSON.stringify(value)} is not a size (such as 2GiB)`);
  if (bytes < MIN_ENGINE_MEMORY)
    throw new ConfigError(`${source}: ${formatSize(bytes)} is below the least, ${formatSize(MIN_ENGINE_MEMORY)}`);
  return bytes;
}

export const LaunchOptionsSchema = Type.Object(
  {
    engines: Type.Optional(Type.Array(EngineNameSchema, { minItems: 1, uniqueItems: true, description: 'The engines to launch.' })),
    profile: Type.Optional(ProfileNameSchema),
    workers: Type.Optional(Type.Integer({ minimum: 1, description: 'Worker threads, each with its own browser per engine.' })),
    pages: Type.Optional(Type.Integer({ minimum: 1, description: 'Pages per engine in each worker (cases each worker runs at once).' })),
    maxBatch: Type.Optional(Type.Integer({ minimum: 1, description: 'The most script-free cases written and walked in one driver call.' })),
    window: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'The most cases each worker holds at once, whatever the batch cap: enough that a fast engine fills its batches while slower ones finish the same cases.',
      }),
    ),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, description: 'Per-case, per-engine time limit.' })),
    maxNodes: Type.Optional(
      Type.Integer({ minimum: 1, description: 'The most elements in a dump; a larger document is answered dump_too_large.' }),
    ),
    maxAnswerBytes: Type.Optional(
      Type.Integer({ minimum: 1, description: "The most bytes of one answer's dumps (shared by its engines); past it, dump_too_large." }),
    ),
    maxEngineMemory: Type.Optional(
      Type.Union([Type.Integer(), Type.String({ pattern: SIZE_PATTERN })], {
        description:
          'The most memory one engine\'s browser may hold, in bytes or as a size ("2GiB"); past it, the process holding the most is killed and its case answered memory_exceeded.',
      }),
    ),
    allowMissingEngines: Type.Optional(
      Type.Boolean({ description: 'Serve with the engines that launched when some did not (by default, starting fails).' }),
    ),
    browsers: Type.Optional(
      literalUnion(BROWSER_SOURCES, "The system packages, Playwright's own builds, or auto (Playwright's where installed)."),
    ),
    display: Type.Optional(
      Type.String({ minLength: 1, description: 'An X display for WebKitGTK; by default the oracle starts a private Xvfb.' }),
    ),
    fonts: Type.Optional(literalUnion(FONT_SET_NAMES, 'The font set every engine sees.')),
    locale: Type.Optional(
      Type.String({
        pattern: '^[a-z]{2,3}-[A-Z]{2}$',
        description: 'The language every engine runs in, as language-REGION (en-US, the default): navigator.language, Intl, the C library.',
      }),
    ),
    timezone: Type.Optional(
      Type.String({ minLength: 1, description: 'The IANA time zone every engine runs in (UTC, the default): Date and Intl.' }),
    ),
    paths: Type.Optional(ExecutablesSchema),
    extra: Type.Optional(LaunchExtrasSchema),
  },
  { ...strict, title: 'Launch options' },
);
/** How an oracle is launched: `Oracle.launch`'s options, and the fields of browser-oracle.config.json. */
export type LaunchOptions = Static<typeof LaunchOptionsSchema>;

/** Every launch option with its value, its default where it was left out; only `display` may stay unset. */
export type OracleOptions = Required<Omit<LaunchOptions, 'display'>> & Pick<LaunchOptions, 'display'>;
