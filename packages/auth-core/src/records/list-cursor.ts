import { decodeOpaqueCursor, encodeOpaqueCursor } from "../http/opaque-cursor.js";
import type { ListPosition, SortedPosition } from "../store/record-lists.js";

export type { ListPosition, SortedPosition };

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

/**
 * The longest cursor of a sorted list worth decoding (its `after`): room for a sort key's value of
 * about 3,000 bytes; a page ending on a longer one is paged past with `offset` (docs/api.md#lists).
 */
export const MAX_SORTED_CURSOR_LENGTH = 4096;

/**
 * The opaque cursor of the page after `position` in a list sorted by `sort` (as the query gave it,
 * `-` and all): base64url of `[sort, value, id]`, the value as stored.
 * @example encodeSortedCursor("-price", { value: 12.5, id: "5d2a…" }) // "WyItcHJpY2Ui…"
 */
export function encodeSortedCursor(sort: string, position: SortedPosition): string {
  return encodeOpaqueCursor([sort, position.value, position.id]);
}

/**
 * What a cursor of a sorted list holds: its sort (as the query gave it), a value and an id; `null`
 * for anything {@link encodeSortedCursor} could not have made. The caller checks the sort is the
 * query's, and the value's type that of the sort key.
 */
export function decodeSortedCursor(cursor: string): { readonly sort: string; readonly position: SortedPosition } | null {
  const value = decodeOpaqueCursor(cursor, 3, MAX_SORTED_CURSOR_LENGTH);
  if (!value) return null;
  const [sort, stored, id] = value as [unknown, unknown, unknown];
  if (typeof sort !== "string" || sort.length === 0 || sort.length > 200) return null;
  const storable =
    stored === null ||
    (typeof stored === "number" && Number.isFinite(stored)) ||
    (typeof stored === "string" && !stored.includes("\u0000"));
  if (!storable || typeof id !== "string" || id.length === 0 || id.length > 128 || id.includes("\u0000")) return null;
  return { sort, position: { value: stored as string | number | null, id } };
}
