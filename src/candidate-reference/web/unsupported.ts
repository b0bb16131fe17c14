// A case the candidate cannot lay out exactly: its message names what (`<property>: <value>`
// where it is a declaration). Thrown from wherever that is found, and answered as `unsupported`.
export class Unsupported extends Error {
  override name = 'Unsupported';
}
