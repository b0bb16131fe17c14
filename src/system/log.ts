// The oracle's one diagnostic channel: stderr (stdout carries protocol lines only). Every line
// has the same form, `browser-oracle: <level>: [<thread>: ]<message>`, so a user can filter by
// level and a worker's lines say which thread wrote them. The level is read once per thread from
// BROWSER_ORACLE_LOG_LEVEL, which the CLI sets before any worker starts.
import { isMainThread, threadId } from 'node:worker_threads';
import { visible } from './visible-text.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const LOG_LEVEL_ENV = 'BROWSER_ORACLE_LOG_LEVEL';

const configured = process.env[LOG_LEVEL_ENV] as LogLevel | undefined;
let threshold = LOG_LEVELS.indexOf(configured && LOG_LEVELS.includes(configured) ? configured : 'info');

/** Sets this thread's level and, through the environment, the level of workers started after it. */
export function setLogLevel(level: LogLevel): void {
  threshold = LOG_LEVELS.indexOf(level);
  process.env[LOG_LEVEL_ENV] = level;
}

const where = isMainThread ? '' : `worker ${threadId}: `;

/** Every line of a diagnostic starts with this (a message of several lines gets it on each). */
export const LOG_PREFIX = 'browser-oracle: ';

/** Whether lines of `level` reach stderr at this thread's level. */
export const logs = (level: LogLevel): boolean => LOG_LEVELS.indexOf(level) <= threshold;

/**
 * `message` as the lines stderr gets for it at `level`, each with the prefix, ending in a newline.
 * A line keeps no control character (an escape sequence would reach the terminal): what a message
 * quotes from outside is made visible where it is put in (visible-text.ts), and this is the net.
 */
export function logLines(level: LogLevel, message: string): string {
  const head = `${LOG_PREFIX}${level}: ${where}`;
  return (
    head +
    message
      .trimEnd()
      .split('\n')
      .map((line) => visible(line))
      .join(`\n${head}`) +
    '\n'
  );
}

function write(level: LogLevel, message: string): void {
  if (logs(level)) process.stderr.write(logLines(level, message));
}

export const log = {
  error: (message: string) => write('error', message),
  warn: (message: string) => write('warn', message),
  info: (message: string) => write('info', message),
  debug: (message: string) => write('debug', message),
};
