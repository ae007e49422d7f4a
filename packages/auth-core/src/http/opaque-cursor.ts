/**
 * An opaque cursor: base64url of a JSON array of a page's last position, which a client passes
 * back without reading it (`nextCursor` of events and of lists).
 */
export function encodeOpaqueCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values), "utf8").toString("base64url");
}

/** The array a cursor holds, of `length` items; `null` for anything {@link encodeOpaqueCursor} could not have made. */
export function decodeOpaqueCursor(cursor: string, length: number, maxLength: number): unknown[] | null {
  if (cursor.length === 0 || cursor.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  return Array.isArray(value) && value.length === length ? value : null;
}
