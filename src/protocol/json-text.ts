// JSON text an encoder in this folder made from checked values. A class, not a string, so a plain
// string can never pass for it; only this folder imports this module (lint enforces it), so only
// its encoders can make one. It crosses from a worker thread to the coordinator inside msgpack as
// an extension that only this module reads.
import { addExtension } from 'msgpackr';

const MINT = Symbol('JsonText');
/** Names the type the text is the JSON of; never a value (the text is parsed only where it is read). */
declare const OF: unique symbol;

/** One well-formed JSON value of type `T` without a raw line break, made by an encoder in src/protocol. */
export class JsonText<T = unknown> {
  declare readonly [OF]?: T;

  private constructor(
    token: symbol,
    readonly text: string,
  ) {
    if (token !== MINT) throw new Error('JsonText is made only by the encoders in src/protocol');
  }

  /** `text` must be JSON an encoder wrote from checked values of type `T`. */
  static mint<T>(text: string): JsonText<T> {
    return new JsonText<T>(MINT, text);
  }
}

// Extension type 0x42 ('B'): JsonText travels as its text and arrives as JsonText again.
addExtension({ Class: JsonText, type: 0x42, write: (value: JsonText) => value.text, read: (text: string) => JsonText.mint(text) });
