// Why a file of a web-platform-tests checkout is not imported: a stable reason code and one line
// saying what in the file needs what the trace op does not give.

/** Every reason, in the order a summary lists them. */
export const REFUSAL_REASONS = [
  'not_a_test',
  'server_side',
  'other_origin',
  'https',
  'testdriver',
  'reftest',
  'manual',
  'worker',
  'not_testharness',
  'not_layout',
  'quirks_mode',
  'variant',
  'missing_file',
  'unsupported',
  'too_large',
  'unreadable',
  'bad_name',
  'outside_checkout',
] as const;

export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** A file the importer does not convert, thrown where the reason is found. */
export class Refusal extends Error {
  override name = 'Refusal';

  constructor(
    readonly reason: RefusalReason,
    /** One line: what in the file, and why the trace op cannot give it. */
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}
