// The Piscina worker: a plain exported function. Loading this module launches this
// worker's browsers (Piscina awaits the exported promise before the worker takes tasks);
// each browser then lives as long as the worker.
import { BroadcastChannel, threadId, workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { firstLine } from '../protocol/errors.js';
import { packResult } from '../protocol/wire.js';
import type { EngineName } from '../protocol/schema.js';
import { EngineHost } from './engine-host.js';
import { LAUNCHERS } from './engines/index.js';
import { log } from '../system/log.js';
import { runGeometry } from './geometry-task.js';
import { runReflect } from './reflect-task.js';
import { runTrace } from './trace-task.js';
import { CONTROL_CHANNEL, type ControlMessage, type WorkerConfig, type WorkerTask } from '../farm/tasks.js';

// Anything a library prints must not reach the protocol channel.
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

const config = workerData as WorkerConfig;
const hosts = new Map<EngineName, EngineHost>();
const failures: Partial<Record<EngineName, string>> = {};

await Promise.all(
  config.engines.map(async (engine) => {
    const host = new EngineHost(engine, LAUNCHERS[engine], config.launch, config.pages);
    try {
      await host.start();
      hosts.set(engine, host);
    } catch (error) {
      failures[engine] = firstLine(error);
      log.error(`${engine}: launch failed: ${failures[engine]}`);
      await host.close();
    }
  }),
);

const control = new BroadcastChannel(CONTROL_CHANNEL);
control.unref();
const post = (message: ControlMessage) => control.postMessage(message);
control.onmessage = async (event) => {
  if ((event as { data: ControlMessage }).data.type !== 'close') return;
  await Promise.all([...hosts.values()].map((h) => h.close()));
  post({ type: 'closed', threadId });
};
post({
  type: 'status',
  threadId,
  versions: Object.fromEntries([...hosts].map(([engine, host]) => [engine, host.version])),
  failures,
});

async function run(task: WorkerTask) {
  switch (task.kind) {
    case 'geometry':
      return runGeometry(task, hosts);
    case 'reflect':
      return runReflect(task, hosts);
    case 'trace':
      return runTrace(task, hosts, config.launch.profile);
  }
}

export default async function runTask(task: WorkerTask) {
  return Piscina.move(packResult(await run(task)));
}
