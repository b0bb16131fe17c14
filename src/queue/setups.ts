// Whether two workers run the same thing: the same build of every engine, the same fonts and
// profile. A campaign's cases may then be compared across machines; when not, it says so once.
import type { WorkerInfo } from './jobs.js';

/** What differs between two workers, in one line naming both; undefined when nothing does. */
export function disagreement(a: WorkerInfo, b: WorkerInfo): string | undefined {
  const engines = [...new Set([...a.engines, ...b.engines])].filter((e) => a.versions[e] !== b.versions[e]);
  if (!engines.length && a.fonts === b.fonts && a.profile === b.profile) return undefined;
  const setup = (w: WorkerInfo) =>
    [...engines.map((e) => `${e} ${w.versions[e] ?? 'not launched'}`), `fonts ${w.fonts}`, `profile ${w.profile}`].join(', ');
  return `${a.host}:${a.pid} runs ${setup(a)}; ${b.host}:${b.pid} runs ${setup(b)}`;
}
