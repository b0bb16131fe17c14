// A check-layout page's authored expectations as a campaign records them: each engine's reading
// judged at WPT's rule (src/comparator/authored.ts), the candidate's judged on what the browsers
// agree on (src/comparator/authored-candidate.ts), and the finding of its own — an assertion all
// three browsers fail alike — as a bucket beside the vote's.
import { agreedAgainst, judgeReading, type AuthoredFailure, type AuthoredTally } from '../../comparator/authored.js';
import type { AuthoredReading } from '../../protocol/authored-schema.js';
import { ENGINE_NAMES, type Dump, type EngineName } from '../../protocol/schema.js';

/** One subject's tally on a case: an engine's, or the candidate's with what it was judged on. */
export interface AuthoredRecord extends AuthoredTally {
  subject: EngineName | 'candidate';
  /** The candidate's name and version; null for an engine. */
  name: string | null;
  version: string | null;
  /** The candidate's scope (authored-candidate.ts's JudgedScope); null for an engine. */
  judged: object | null;
}

/** An assertion the three browsers fail alike: its bucket signature and every such assertion. */
export interface AuthoredFinding {
  signature: string;
  detail: AuthoredFailure[];
}

/** Each engine's check-layout reading among its outcomes (as the journal holds them); undefined when none has one (not a check-layout page). */
export function readingsOf(
  outcomes: readonly { engine: EngineName; authored?: string | null }[],
): Partial<Record<EngineName, AuthoredReading>> | undefined {
  const read = outcomes.filter((o) => o.authored);
  return read.length ? Object.fromEntries(read.map((o) => [o.engine, JSON.parse(o.authored!) as AuthoredReading])) : undefined;
}

/** Each engine's reading judged, tags from its dump; and the finding when all three fail an assertion alike. */
export function engineAuthored(
  readings: Partial<Record<EngineName, AuthoredReading>>,
  outcomes: readonly { engine: EngineName; result: string | null }[],
): { records: AuthoredRecord[]; finding: AuthoredFinding | null } {
  const records: AuthoredRecord[] = [];
  for (const engine of ENGINE_NAMES) {
    const reading = readings[engine];
    const result = outcomes.find((o) => o.engine === engine)?.result;
    if (reading === undefined || !result) continue;
    const nodes = (JSON.parse(result) as Dump).nodes;
    const tally = judgeReading(reading, (i) => nodes[i]?.tag ?? '?');
    records.push({ subject: engine, name: null, version: null, judged: null, ...tally });
  }
  const agreed = agreedAgainst(records);
  const first = agreed[0];
  return {
    records,
    finding: first ? { signature: `wpt authored | browsers agree against | ${first.attr} | ${first.tag}`, detail: agreed } : null,
  };
}
