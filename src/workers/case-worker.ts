// The Piscina worker: a plain exported function. Loading this module launches this worker's
// browsers (Piscina awaits the exported promise before the worker takes tasks); each browser
// then lives as long as the worker.
import { BroadcastChannel, threadId, workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ControlMessage, WorkerConfig, WorkerTask } from '../worker-contract/tasks.js';
import { CONTROL_CHANNEL } from '../worker-contract/tasks.js';
import { firstLine } from '../protocol/errors.js';
import type { CaseOp } from '../protocol/ops.js';
import type { EngineName } from '../protocol/schema.js';
import { packResult } from '../protocol/wire.js';
import { log } from '../system/log.js';
import { LAUNCHERS } from './engines/index.js';
import { EngineHost } from './host/engine-host.js';
import { MemoryWatcher } from './host/memory-watch.js';
import { TASKS } from './tasks/index.js';
import type { Task } from './tasks/task.js';
import { workerContext } from './worker-context.js';

// Anything a library prints must not reach the protocol channel.
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

const config = workerData as WorkerConfig;
const hosts = new Map<EngineName, EngineHost>();
const failures: Partial<Record<EngineName, string>> = {};
const memory = new MemoryWatcher(config.maxEngineMemory);

await Promise.all(
  config.engines.map(async (engine) => {
    const host = new EngineHost(engine, LAUNCHERS[engine], config, memory);
    try {
      await host.start();
      hosts.set(engine, host);
    } catch (error) {
      failures[engine] = firstLine(error);
      log.warn(`${engine}: launch failed: ${failures[engine]}`);
      await host.close();
    }
  }),
);
const context = workerContext(hosts, config);

const control = new BroadcastChannel(CONTROL_CHANNEL);
control.unref();
const post = (message: ControlMessage) => control.postMessage(message);
control.onmessage = async (event) => {
  if ((event as { data: ControlMessage }).data.type !== 'close') return;
  await Promise.all([...hosts.values()].map((h) => h.close()));
  await memory.close();
  post({ type: 'closed', threadId });
};
post({
  type: 'status',
  threadId,
  versions: Object.fromEntries([...hosts].map(([engine, host]) => [engine, host.version])),
  guarded: [...hosts].filter(([, host]) => host.guarded).map(([engine]) => engine),
  failures,
  executables: Object.assign({}, ...[...hosts.values()].map((host) => host.executables)),
});

/**
 * Answers one case with its op's task. A task that fails as a whole (a bug, an answer that cannot
 * be packed) rejects: the coordinator answers the case from the same task run on no engine
 * (src/coordinator/run-case.ts).
 */
export default async function runTask(task: WorkerTask) {
  const run = TASKS[task.op] as Task<CaseOp>;
  return Piscina.move(packResult(await run(task, context)));
}
