// What the engines tried to reach and were refused (src/coordinator/case-server.ts): a count,
// and the first few on stderr, each naming the case whose page asked when one did. Bounded: a
// case that sends a million requests costs a counter, not a million lines or a growing list.
import { log } from '../system/log.js';

/** How many refusals are logged, and how many kept for a caller to read. */
const LOGGED = 20;

export class EgressLog {
  /** Every refusal, counted. */
  count = 0;
  /** The first refusals, as "METHOD target [case id]". */
  readonly first: string[] = [];

  refused(method: string, target: string, caseId: string | undefined): void {
    this.count++;
    if (this.first.length >= LOGGED) return;
    const line = `${method} ${target.slice(0, 300)}${caseId === undefined ? '' : ` (case ${JSON.stringify(caseId.slice(0, 100))})`}`;
    this.first.push(line);
    log.warn(`refused an engine's request: ${line}${this.first.length === LOGGED ? `; further refusals are only counted` : ''}`);
  }
}
