/** The largest accepted request body, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

/** The largest request head Node.js reads by default (`maxHeaderSize`), which the servers keep. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** A size in words: `16 KiB`. */
export function kibibytes(bytes: number): string {
  return `${bytes / 1024} KiB`;
}
