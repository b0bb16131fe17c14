// The options of every command that runs engines (the stdio oracle, campaign, probe,
// reflect-corpus): the launch options, the config file they may come from, and how much goes to
// stderr. A setting
// comes from the command's default, then the config file, then the command line: a flag given
// always wins.
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { PROFILE_NAMES } from '../protocol/common.js';
import { FONT_SET_NAMES } from '../protocol/font-sets.js';
import {
  BROWSER_SOURCES,
  engineMemoryBytes,
  EXECUTABLES,
  type ExecutableKey,
  type Executables,
  type LaunchOptions,
  type OracleOptions,
} from '../protocol/launch-options.js';
import { formatSize } from '../protocol/sizes.js';
import { LOG_LEVEL_ENV, LOG_LEVELS, setLogLevel, type LogLevel } from '../system/log.js';
import { CONFIG_FILE, configFileFor, readConfigFile } from '../api/config-file.js';
import { withDefaults } from '../coordinator/launch-settings.js';
import { engineList, languageRegion, memorySize, wholeNumber } from './arguments.js';

/** The launch options a flag can set, by the key commander stores it under. */
const FLAG_OPTIONS = [
  'engines',
  'profile',
  'fonts',
  'locale',
  'timezone',
  'workers',
  'pages',
  'maxBatch',
  'window',
  'timeoutMs',
  'maxNodes',
  'maxAnswerBytes',
  'maxEngineMemory',
  'chromiumBuild',
  'browsers',
  'display',
  'allowMissingEngines',
] as const;

/**
 * The flags whose launch option has another name: --chromium-build sets `browsers`, the name the
 * config file and the library published before the flag said that only Chromium is affected.
 */
const LAUNCH_KEY: Partial<Record<(typeof FLAG_OPTIONS)[number], keyof LaunchOptions>> = { chromiumBuild: 'browsers' };

const MIB = 1024 * 1024;

const EXECUTABLE_KEYS = Object.keys(EXECUTABLES) as ExecutableKey[];

/** The flag of the executable `key` (`webkitDriver` → `--webkit-driver <path>`); one per command. */
const executableOption = (key: ExecutableKey) => new Option(`${EXECUTABLES[key].flag} <path>`, EXECUTABLES[key].help);

/** Adds the engine options to `command`, showing `defaults` in --help, and sets the log level before its action runs. */
export function addEngineOptions(command: Command, defaults: OracleOptions): Command {
  command
    .addOption(
      new Option('--config <file>', `launch options from a JSON file, which flags override (default: ./${CONFIG_FILE} when present)`),
    )
    .addOption(
      new Option('--engines <list>', 'engines to launch').default(defaults.engines, defaults.engines.join(',')).argParser(engineList),
    )
    .addOption(new Option('--profile <name>', 'launch profile for every engine').choices(PROFILE_NAMES).default(defaults.profile))
    .addOption(
      new Option('--fonts <set>', 'fonts every engine sees: Liberation, or the generated one-em-square font (docs/fonts.md)')
        .choices(FONT_SET_NAMES)
        .default(defaults.fonts),
    )
    .addOption(
      new Option('--locale <tag>', "language every engine runs in, as language-REGION: navigator.language, Intl, the C library's locale")
        .default(defaults.locale)
        .argParser(languageRegion),
    )
    .addOption(new Option('--timezone <zone>', 'IANA time zone every engine runs in: Date and Intl').default(defaults.timezone))
    .addOption(
      new Option('--workers <n>', 'worker threads, each with its own browser per engine')
        .default(defaults.workers)
        .argParser(wholeNumber('--workers')),
    )
    .addOption(
      new Option('--pages <n>', 'pages per engine in each worker (cases each worker runs at once)')
        .default(defaults.pages)
        .argParser(wholeNumber('--pages')),
    )
    .addOption(
      new Option('--max-batch <n>', 'most script-free cases written and walked in one driver call')
        .default(defaults.maxBatch)
        .argParser(wholeNumber('--max-batch')),
    )
    .addOption(
      new Option('--window <n>', 'most cases each worker holds at once, so that a fast engine never waits for a slow one')
        .default(defaults.window)
        .argParser(wholeNumber('--window')),
    )
    .addOption(
      new Option('--timeout-ms <ms>', 'per-case, per-engine time limit').default(defaults.timeoutMs).argParser(wholeNumber('--timeout-ms')),
    )
    .addOption(
      new Option('--max-nodes <n>', 'most elements in a dump; a larger document is answered dump_too_large')
        .default(defaults.maxNodes)
        .argParser(wholeNumber('--max-nodes')),
    )
    .addOption(
      new Option('--max-answer-bytes <n>', "most bytes of one answer's dumps (shared by its engines)")
        .default(defaults.maxAnswerBytes, `${defaults.maxAnswerBytes / MIB} MiB`)
        .argParser(wholeNumber('--max-answer-bytes')),
    )
    .addOption(
      new Option('--max-engine-memory <size>', "most memory one engine's browser may hold (2GiB, 1536MiB); past it, memory_exceeded")
        .default(defaults.maxEngineMemory, formatSize(engineMemoryBytes(defaults.maxEngineMemory, 'the default')))
        .argParser(memorySize('--max-engine-memory')),
    )
    .addOption(
      new Option(
        '--chromium-build <which>',
        "which Chromium: Debian's package (system), Playwright's own build (bundled), or auto (bundled when installed); Firefox and WebKit are always the system's",
      )
        .choices(BROWSER_SOURCES)
        .default(defaults.browsers)
        .conflicts('browsers'),
    )
    // The old name of --chromium-build, which said more than it did; kept working, out of --help.
    .addOption(new Option('--browsers <which>').choices(BROWSER_SOURCES).hideHelp())
    .addOption(new Option('--display <name>', 'X display for WebKitGTK (default: start a private Xvfb)'))
    .addOption(new Option('--allow-missing-engines', 'serve with the engines that launched when some did not (default: exit 1)'));
  for (const key of EXECUTABLE_KEYS) command.addOption(executableOption(key));
  command
    .addOption(
      new Option('--log-level <level>', 'the least severe diagnostics written to stderr')
        .choices(LOG_LEVELS)
        .default('info')
        .env(LOG_LEVEL_ENV),
    )
    .addOption(new Option('--quiet', 'errors only on stderr (--log-level=error)'))
    .hook('preAction', (self) => {
      const { quiet, logLevel } = self.opts<{ quiet?: boolean; logLevel: LogLevel }>();
      // --quiet wins over the environment's level, not over a --log-level given beside it.
      if (quiet && self.getOptionValueSource('logLevel') === 'cli') self.error('--quiet and --log-level set the same thing: give one');
      setLogLevel(quiet ? 'error' : logLevel);
    });
  return command;
}

/** The engine flags given on `command`'s command line (--config included), as typed: with --queue they are the workers'. */
export function engineFlagsGiven(command: Command): string[] {
  const keys = ['config', ...FLAG_OPTIONS, ...EXECUTABLE_KEYS.map((key) => executableOption(key).attributeName())];
  return command.options
    .filter((o) => keys.includes(o.attributeName()) && command.getOptionValueSource(o.attributeName()) === 'cli')
    .map((o) => o.long!);
}

/**
 * The launch options `command` was given: its defaults, overridden by the config file (--config,
 * or ./browser-oracle.config.json), overridden by the flags given. Throws a ConfigError for an
 * unusable config file.
 */
export function launchOptionsOf(command: Command, defaults: OracleOptions): OracleOptions {
  const opts = command.opts<Record<string, unknown>>();
  const file = configFileFor(opts.config as string | undefined);
  const fromFile: LaunchOptions = file ? readConfigFile(file) : {};
  const given = (key: string) => command.getOptionValueSource(key) === 'cli';
  const fromFlags = Object.fromEntries(FLAG_OPTIONS.filter(given).map((key) => [LAUNCH_KEY[key] ?? key, opts[key]])) as LaunchOptions;
  const paths: Executables = { ...fromFile.paths };
  for (const key of EXECUTABLE_KEYS) {
    const path = opts[executableOption(key).attributeName()];
    if (typeof path === 'string') paths[key] = resolve(path);
  }
  return withDefaults({ ...defaults, ...fromFile, ...fromFlags, paths });
}
