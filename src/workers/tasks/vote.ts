// The `vote` op: a geometry case, voted here beside the engines, answered with the vote (and the
// dumps and in-page times when asked). With no engine at all, the vote over nothing: insufficient,
// with every engine's error. Asked for `columns`, it answers with each engine's walk in columns
// too, beside the answer: a campaign judges a candidate on them rather than on the dumps parsed again.
import { inAnswerOrder } from '../../protocol/ops.js';
import { encodeJson } from '../../protocol/wire.js';
import { packColumns } from '../../protocol/walk-columns.js';
import { columnarFromRaw } from '../../comparator/columnar.js';
import { voteColumnar } from '../../comparator/vote.js';
import { authoredOf, dumpsOf, relayoutOf, scrollbarsOf, timingOf, walkEach } from './geometry.js';
import { errorsField, perEngine, type Task } from './task.js';

export const vote: Task<'vote'> = async (task, ctx) => {
  const { results, errors } = await walkEach(task, ctx);
  const columnar = perEngine(results, (w, engine) => columnarFromRaw(w.walk, engine));
  const answer = inAnswerOrder('vote', {
    vote: encodeJson(voteColumnar({ dumps: columnar, errors })),
    relayout: task.request.relayout ? relayoutOf(results) : undefined,
    dumps: task.request.dumps ? dumpsOf(results) : undefined,
    authored: task.request.authored ? authoredOf(results) : undefined,
    errors: errorsField(errors),
    timing: task.request.timing ? timingOf(results) : undefined,
    scrollbars: task.request.site ? scrollbarsOf(results) : undefined,
  });
  return task.columns ? { ...answer, columns: perEngine(results, ({ walk }) => packColumns(walk)) } : answer;
};
