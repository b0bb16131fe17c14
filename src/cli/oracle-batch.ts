// What the corpus and probe commands share: start an oracle process of their own, send it a
// batch of requests, and collect every answer line by id once it has shut down.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ORACLE_MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

export interface BatchResult {
  /** Answer lines, parsed, by id. */
  answers: Map<string, { id: string } & Record<string, unknown>>;
  exitCode: number | null;
  /** The end of the oracle's stderr, for a message when answers are missing. */
  stderrTail: string;
}

export async function runBatch(oracleArgs: readonly string[], requests: readonly { id: string }[]): Promise<BatchResult> {
  const oracle = spawn(process.execPath, [ORACLE_MAIN, ...oracleArgs], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderrTail = '';
  oracle.stderr.on('data', (chunk) => (stderrTail = (stderrTail + chunk).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => oracle.once('exit', resolve));
  const answers: BatchResult['answers'] = new Map();
  const lines = createInterface({ input: oracle.stdout });
  lines.on('line', (text) => {
    const line = JSON.parse(text) as { id: string } & Record<string, unknown>;
    answers.set(line.id, line);
  });
  const closed = new Promise((resolve) => lines.once('close', resolve));
  // An oracle that dies early breaks the pipe; the caller reports the unanswered requests.
  oracle.stdin.on('error', () => {});
  // The oracle answers every request before the shutdown, then exits.
  for (const request of requests) oracle.stdin.write(JSON.stringify(request) + '\n');
  oracle.stdin.end(JSON.stringify({ id: '__shutdown', op: 'shutdown' }) + '\n');
  const [exitCode] = await Promise.all([exited, closed]);
  return { answers, exitCode, stderrTail };
}
