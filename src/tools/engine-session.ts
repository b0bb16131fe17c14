// The steps every tool that runs cases on an engine farm in this process shares (campaign, reduce,
// report): start the farm, stop before any work when an engine did not launch (the farm has logged
// why), and close the farm however the tool's work ends. SIGINT and SIGTERM are the tool's while
// its session lasts, so that it can stop taking work and still close everything.
import { OracleService, type OracleOptions } from '../coordinator/oracle-service.js';
import { log } from '../system/log.js';

export interface EngineSession {
  /** The tool's name, which begins the line it logs: `reduce`. */
  tool: string;
  options: OracleOptions;
  /** What the line says was not done when an engine did not launch: `nothing was run`. */
  notDone: string;
  /** Handles SIGINT and SIGTERM from before the farm starts until it is closed. */
  onSignal?: (signal: NodeJS.Signals) => void;
}

/**
 * Runs `work` on an engine farm started in this process and resolves with its exit status, or
 * with 1, without calling `work`, when an engine did not launch.
 */
export async function withEngines(session: EngineSession, work: (oracle: OracleService) => Promise<number>): Promise<number> {
  const run = async () => {
    const oracle = await OracleService.start(session.options);
    try {
      const missing = session.options.engines.filter((e) => !oracle.engines.includes(e));
      if (missing.length) {
        log.error(`${session.tool}: ${missing.join(', ')} did not launch (the reason is above); ${session.notDone}`);
        return 1;
      }
      return await work(oracle);
    } finally {
      await oracle.close();
    }
  };
  return session.onSignal ? handlingSignals(session.onSignal, run) : run();
}

/** Runs `work` with SIGINT and SIGTERM going to `onSignal` instead of ending the process. */
export async function handlingSignals<T>(onSignal: (signal: NodeJS.Signals) => void, work: () => Promise<T>): Promise<T> {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
