// What makes a string usable as a request id: it is echoed on answer lines, keys a case in the
// journal (SQLite text) and is shown in summaries and reports, all of them UTF-8, which has no
// form for a lone surrogate (a "\ud800" escape with no partner). Such an id would come back
// changed, so it is refused where it enters.

/** A high surrogate without a low one after it, or a low one without a high one before it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `id` cannot be an id (the rest of an `invalid_request: field "id": …` message), or undefined when it can. */
export function idProblem(id: string): string | undefined {
  const lone = LONE_SURROGATE.exec(id);
  if (!lone) return undefined;
  const unit = lone[0].charCodeAt(0).toString(16);
  return `holds a lone surrogate (\\u${unit} at index ${lone.index}), which UTF-8 cannot carry; send well-formed Unicode`;
}
