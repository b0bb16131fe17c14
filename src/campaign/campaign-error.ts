// The campaign's user-facing failures (a bad --db, --corpus or --expect): the CLI prints the
// message alone, as one line, never a stack.

/** An error the user can fix; its message names the file and what is wrong with it. */
export class CampaignError extends Error {
  override name = 'CampaignError';
}
