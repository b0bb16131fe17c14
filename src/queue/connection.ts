// Where the queue lives and how to reach it: a redis:// or rediss:// (TLS) URL, with the password
// and the database number in it, the queues' names, and connections that wait out a Redis
// restart instead of failing (BullMQ's workers require it: maxRetriesPerRequest null).
import { Redis } from 'ioredis';
import { ConfigError, firstLine } from '../protocol/errors.js';
import { log } from '../system/log.js';

/** The password of a --queue URL that has none: the command line, unlike the environment, is readable by every user (ps). */
export const PASSWORD_ENV = 'BROWSER_ORACLE_REDIS_PASSWORD';

/** The queue every worker takes cases from. */
export const CASES_QUEUE = 'browser-oracle-cases';

/** The queue one submitter (a campaign, a stdio oracle) collects its results from; BullMQ forbids ':' in a name. */
export const resultsQueue = (session: string): string => `browser-oracle-results-${session}`;

/** A --queue value checked: redis:// or rediss://, a host, a database number when a path is given; the password from `env` when it has none. */
export function queueUrl(text: string, env: NodeJS.ProcessEnv = process.env): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`--queue ${text}: not a URL (give redis://[:PASSWORD@]HOST[:PORT][/DB], or rediss:// for TLS)`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new ConfigError(`--queue ${shown(url)}: the scheme must be redis:// or rediss:// (TLS), not ${url.protocol}//`);
  if (!url.hostname) throw new ConfigError(`--queue ${shown(url)}: no host`);
  if (!/^\/?(\d+)?$/.test(url.pathname)) throw new ConfigError(`--queue ${shown(url)}: the path must be a database number (/0)`);
  const password = env[PASSWORD_ENV];
  if (!url.password && password) url.password = encodeURIComponent(password);
  return url;
}

/** The URL with its password hidden, for messages. */
export function shown(url: URL): string {
  if (!url.password) return url.href;
  const copy = new URL(url.href);
  copy.password = '***';
  return copy.href;
}

/**
 * A new connection to the queue's Redis. A command waits while Redis is away and is sent once it
 * is back; the first failure of an outage and the recovery are logged once each.
 */
export function connect(url: URL, purpose: string): Redis {
  const redis = new Redis(url.href, { maxRetriesPerRequest: null, connectionName: `browser-oracle ${purpose}` });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn(`queue: ${purpose}: Redis at ${shown(url)}: ${error.message}; retrying`);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info(`queue: ${purpose}: Redis at ${shown(url)} is back`);
  });
  return redis;
}

/** Redis said no (a wrong or missing password, a user without the rights), or its certificate is not trusted: waiting cannot cure it. */
const refused = (error: Error & { code?: string }) =>
  error.name === 'ReplyError' || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(error.code ?? '');

/**
 * Waits until Redis at `url` answers, on a connection of its own: true then, false once `stop`
 * is aborted first. A refusal that waiting cannot cure is a ConfigError naming the URL, password
 * hidden.
 */
export async function reachable(url: URL, stop?: AbortSignal): Promise<boolean> {
  if (stop?.aborted) return false;
  const probe = new Redis(url.href, { maxRetriesPerRequest: null, lazyConnect: true });
  let warned = false;
  let onAbort: (() => void) | undefined;
  try {
    return await new Promise<boolean>((resolve, reject) => {
      probe.on('error', (error: Error) => {
        if (refused(error)) reject(new ConfigError(`--queue ${shown(url)}: ${firstLine(error)}`));
        else if (!warned) {
          warned = true;
          log.warn(`queue: waiting for Redis at ${shown(url)} (${error.message})`);
        }
      });
      onAbort = () => resolve(false);
      stop?.addEventListener('abort', onAbort, { once: true });
      probe.ping().then(() => resolve(true), reject);
    });
  } finally {
    if (onAbort) stop?.removeEventListener('abort', onAbort);
    // disconnect(), not quit(): it ends the retries at once, whether Redis answers or not.
    probe.disconnect();
  }
}
