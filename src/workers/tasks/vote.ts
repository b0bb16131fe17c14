// The `vote` op: a geometry case, voted here beside the engines, answered with the vote (and the
// dumps and in-page times when asked). With no engine at all, the vote over nothing: insufficient,
// with every engine's error.
import { inAnswerOrder } from '../../protocol/ops.js';
import { encodeJson } from '../../protocol/wire.js';
import { columnarFromRaw } from '../../comparator/columnar.js';
import { voteColumnar } from '../../comparator/vote.js';
import { dumpsOf, relayoutOf, timingOf, walkEach } from './geometry.js';
import { errorsField, perEngine, type Task } from './task.js';

export const vote: Task<'vote'> = async (task, ctx) => {
  const { results, errors } = await walkEach(task, ctx);
  const columnar = perEngine(results, (w, engine) => columnarFromRaw(w.walk, engine));
  return inAnswerOrder('vote', {
    vote: encodeJson(voteColumnar({ dumps: columnar, errors })),
    relayout: task.request.relayout ? relayoutOf(results) : undefined,
    dumps: task.request.dumps ? dumpsOf(results) : undefined,
    errors: errorsField(errors),
    timing: task.request.timing ? timingOf(results) : undefined,
  });
};
