// Screenshots go into the report inline, as data URLs, so it needs nothing but itself.

/** The PNG as a data: URL (base64 only: nothing in it can close the attribute it sits in). */
export const pngDataUrl = (bytes: Uint8Array): string =>
  `data:image/png;base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
