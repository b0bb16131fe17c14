// Each op's task, by op: the worker's half of every case op in the registry (src/protocol/ops.ts).
// The mapped type holds this table to the registry: an op without its task, or a task for no op,
// does not compile.
import type { CaseOp } from '../../protocol/ops.js';
import { geometry } from './geometry.js';
import { reflect } from './reflect.js';
import { screenshot } from './screenshot.js';
import type { Task } from './task.js';
import { trace } from './trace.js';
import { vote } from './vote.js';

export const TASKS: { readonly [K in CaseOp]: Task<K> } = { geometry, vote, reflect, trace, screenshot };
