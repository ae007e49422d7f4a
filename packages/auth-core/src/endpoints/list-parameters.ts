import { LIST_PAGE_LIMITS } from "../records/list-page.js";
import type { EndpointParameter } from "./catalog.js";

/** The form of a cursor the API gives (`nextCursor`): base64url, never longer than this. */
export const CURSOR_FORM = { pattern: "^[A-Za-z0-9_-]+$", maxLength: 400 } as const;

/**
 * The query of every entity's list (docs/api.md#lists): declared once, parsed by the route and
 * described by the document from this list. `after` and `offset` exclude each other, and `after`
 * must be a cursor the API gave: the route checks both once these are read.
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
    description: "A page's `nextCursor`: the page after it, however deep (not with `offset`).",
  },
  {
    name: "total",
    in: "query",
    values: ["exact"],
    description: "`exact`: count every record even above 10,000 (slower on large collections).",
  },
];
