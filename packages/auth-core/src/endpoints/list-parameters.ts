import { MAX_SORTED_CURSOR_LENGTH } from "../records/list-cursor.js";
import { LIST_PAGE_LIMITS } from "../records/list-page.js";
import type { EndpointParameter } from "./catalog.js";

/** The form of a cursor the API gives (`nextCursor`): base64url, never longer than this. */
export const CURSOR_FORM = { pattern: "^[A-Za-z0-9_-]+$", maxLength: 400 } as const;

/** How long a list's search text (`q`) may be, in UTF-16 code units. */
export const SEARCH_LENGTH = { min: 1, max: 100 } as const;

/**
 * The query of every entity's list (docs/api.md#lists): declared once, parsed by the route and
 * described by the document from this list. `after` and `offset` exclude each other, and `after`
 * must be a cursor the API gave under the same `sort`; `sort` names a sort key of the entity, and
 * `where.<field>` (not listed here: one per filterable field) a filter: the route checks these once
 * they are read, and the document lists each entity's sort keys and filters.
 */
export const LIST_PARAMETERS: readonly EndpointParameter[] = [
  {
    name: "limit",
    in: "query",
    type: "integer",
    minimum: LIST_PAGE_LIMITS.min,
    maximum: LIST_PAGE_LIMITS.max,
    default: LIST_PAGE_LIMITS.default,
    description: `How many records a page holds.`,
  },
  { name: "offset", in: "query", type: "integer", minimum: 0, default: 0, description: "How many records to skip (not with `after`)." },
  {
    name: "after",
    in: "query",
    ...CURSOR_FORM,
    // A cursor under `sort` holds the last record's value of the sort key: longer than the others.
    maxLength: MAX_SORTED_CURSOR_LENGTH,
    description: "A page's `nextCursor`: the page after it, however deep (not with `offset`; with the same `sort` as that page).",
  },
  {
    name: "total",
    in: "query",
    values: ["exact"],
    description: "`exact`: count every record even above 10,000 (slower on large collections).",
  },
  {
    name: "q",
    in: "query",
    minLength: SEARCH_LENGTH.min,
    maxLength: SEARCH_LENGTH.max,
    pattern: "^[^\\u0000]*$",
    description:
      "Only records one of whose `string` fields holds this text, ignoring case (ASCII letters only on SQLite); `%`, `_` and `\\` are matched as written.",
  },
  {
    name: "sort",
    in: "query",
    maxLength: 200,
    description:
      "The order: a field (`createdAt`, `updatedAt` or a scalar field, not `text`), ascending, or descending with a leading `-`; then `id` the same way, records without a value last. Default: `createdAt`.",
  },
];
