// What this test process writes to stderr (the oracle's log, in process) from now until stop(); it
// still reaches the real stderr, long chunks cut.
export function captureStderr(): { text: () => string; stop: () => void } {
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    written.push(String(chunk));
    return write(typeof chunk === 'string' && chunk.length > 2000 ? `${chunk.slice(0, 2000)}…\n` : chunk, ...rest);
  }) as typeof process.stderr.write;
  return { text: () => written.join(''), stop: () => (process.stderr.write = write) };
}
