// What the engines tried to reach and were refused (src/coordinator/case-server.ts): a count,
// and the first few on stderr, each naming the case whose page asked. A request no case's page
// made is an engine's own background traffic (Chromium lists the accounts of each new profile
// whatever its switches say): counted, and told only at debug level, so that what a case did is
// what a user reads. Bounded: a case that sends a million requests costs a counter, not a million
// lines or a growing list.
import { log } from '../system/log.js';

/** How many refusals are logged, and how many kept for a caller to read. */
const LOGGED = 20;

export class EgressLog {
  /** Every refusal, counted. */
  count = 0;
  /** The first refusals a case asked for, as "METHOD target (case …)". */
  readonly first: string[] = [];

  /** `source`: the case (or page) that asked, as a user reads it; undefined for an engine's own request. */
  refused(method: string, target: string, source: string | undefined): void {
    this.count++;
    if (source === undefined) {
      // An engine's own traffic (update checks), a tunnel (CONNECT carries no Referer), or a page that sends none.
      log.debug(`refused a request that names no page: ${method} ${target.slice(0, 300)}`);
      return;
    }
    if (this.first.length >= LOGGED) return;
    const line = `${method} ${target.slice(0, 300)} (${source})`;
    this.first.push(line);
    log.warn(`refused an engine's request: ${line}${this.first.length === LOGGED ? `; further refusals are only counted` : ''}`);
  }
}
