// Diagnostics go to stderr: stdout is the protocol channel.
export function log(message: string): void {
  process.stderr.write(`browser-oracle: ${message}\n`);
}
