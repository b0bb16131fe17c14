// Stable error codes. On the wire the code leads the message text ("case_timeout: ..."),
// so the contract's `errors: {engine: "message"}` shape is unchanged while clients can
// still branch on the code.

export const ERROR_CODES = {
  invalid_json: 'the line is not valid JSON (or not UTF-8); send one JSON object per line',
  invalid_request: 'a field is missing, unknown or of the wrong type; fix the named field',
  line_too_long: 'the line exceeds the size limit; raise --max-line-bytes or send a smaller case',
  engine_not_launched: 'the engine is not running in this oracle; see its stderr for why',
  case_timeout: 'the engine did not finish the case in time; the page was replaced',
  engine_crashed: 'the engine process died during the case; it is being relaunched',
  memory_exceeded:
    "the engine's processes passed their memory budget (--max-engine-memory) during the case, twice, the second time on a fresh page; the process holding the most was killed each time and the page replaced",
  script_error: "the case's script threw; the message carries its error",
  navigation_failed: 'the engine could not load the case document',
  page_tampered:
    "what came back from the page is not the oracle's own result for the case's own document (the case broke the in-page code, or left its document); the page was replaced",
  dump_too_large:
    'the document is over the node, fragment or byte limit (--max-nodes, --max-answer-bytes); raise the limit or send a smaller case',
  selector_not_found:
    "a reflect probe's selector matched no element (or is not a selector the engine accepts); fix the selector or the case's html",
  internal_error: 'a bug in the oracle; please report it with the request line',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** An error whose code survives the worker → coordinator hop and leads its wire text. */
export class OracleError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OracleError';
  }

  /** `code: message`, the form every error takes on the wire. */
  get wireText(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** The wire text for any thrown value; non-oracle errors are reported as `internal_error`. */
export function errorWireText(error: unknown): string {
  if (error instanceof OracleError) return error.wireText;
  const message = error instanceof Error ? error.message : String(error);
  return `internal_error: ${message}`;
}

/** The error for an engine this oracle does not run (the contract's "engine not launched"). */
export const ENGINE_NOT_LAUNCHED = new OracleError('engine_not_launched', 'engine not launched').wireText;

/** The first line of an error's message: driver errors carry call logs and stacks after it. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** A setting the oracle cannot start with (a launch option, a config file field, an executable); the message names it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
