import { decodeOpaqueCursor, encodeOpaqueCursor } from "../http/opaque-cursor.js";
import type { ListPosition } from "../store/record-lists.js";

export type { ListPosition };

/** The longest cursor worth decoding: an instant and an id of at most 128 characters, with room to spare. */
const MAX_CURSOR_LENGTH = 400;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/**
 * The opaque cursor of the page after `position` (docs/api.md#lists): base64url of `[createdAt, id]`, so
 * a client passes it back as `after` without reading it.
 * @example encodeListCursor({ createdAt: "2026-11-26T10:00:00.000Z", id: "5d2a…" }) // "WyIyMDI2…"
 */
export function encodeListCursor(position: ListPosition): string {
  return encodeOpaqueCursor([position.createdAt, position.id]);
}

/** The position a cursor stands for; `null` for anything {@link encodeListCursor} could not have made. */
export function decodeListCursor(cursor: string): ListPosition | null {
  const value = decodeOpaqueCursor(cursor, 2, MAX_CURSOR_LENGTH);
  if (!value) return null;
  const [createdAt, id] = value as [unknown, unknown];
  if (typeof createdAt !== "string" || !INSTANT.test(createdAt) || Number.isNaN(Date.parse(createdAt))) return null;
  if (typeof id !== "string" || id.length === 0 || id.length > 128 || id.includes("\u0000")) return null;
  return { createdAt, id };
}
