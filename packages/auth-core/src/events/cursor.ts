import { decodeOpaqueCursor, encodeOpaqueCursor } from "../http/opaque-cursor.js";

/** Where a page of events ends: the last event shown, by its time (ms since the epoch) and id. */
export interface EventPosition {
  readonly at: number;
  readonly id: string;
}

/** Event ids are 28 lower-case hex digits; anything longer or of other characters was never one. */
const EVENT_ID = /^[0-9a-f]{1,64}$/;
/** The longest cursor worth decoding: a time and an id, with room to spare. */
const MAX_CURSOR_LENGTH = 200;

/**
 * The opaque cursor of the page after `position`: base64url of `[at, id]`, so a client passes it
 * back as `before` without reading it.
 */
export function encodeCursor(position: EventPosition): string {
  return encodeOpaqueCursor([position.at, position.id]);
}

/** The position a cursor stands for; `null` for anything {@link encodeCursor} could not have made. */
export function decodeCursor(cursor: string): EventPosition | null {
  const value = decodeOpaqueCursor(cursor, 2, MAX_CURSOR_LENGTH);
  if (!value) return null;
  const [at, id] = value as [unknown, unknown];
  if (typeof at !== "number" || !Number.isSafeInteger(at) || at < 0) return null;
  if (typeof id !== "string" || !EVENT_ID.test(id)) return null;
  return { at, id };
}
