// What a command prints on stdout when it may be piped into a reader that stops early (`| head`):
// the reader going away ends the writing quietly, as for any Unix filter, not with an EPIPE error.

/** Runs `write` on stdout; a reader that goes away (`| head`) ends it quietly. */
export async function toStdout(write: (out: NodeJS.WriteStream) => Promise<void>): Promise<void> {
  const gone = new Promise<void>((resolve, reject) =>
    process.stdout.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? resolve() : reject(error))),
  );
  await Promise.race([write(process.stdout), gone]);
}

/** Prints `text`, whole, once it has been made whole: nothing is printed of an output that failed halfway. */
export const printWhole = (text: string): Promise<void> =>
  toStdout((out) => new Promise<void>((resolve, reject) => out.write(text, (error) => (error ? reject(error) : resolve()))));
