import type { EntityModel, FieldModel } from "../config/index.js";
import type { ListQuery } from "../endpoints/api-paths.js";
import { LIST_PARAMETERS } from "../endpoints/list-parameters.js";
import { parseQuery } from "../endpoints/query.js";
import { ApiError, type Issue } from "../http/errors.js";
import { decodeListCursor, decodeSortedCursor, type ListPosition, type SortedPosition } from "../records/list-cursor.js";
import { LIST_PAGE_LIMITS } from "../records/list-page.js";
import { holdsSortValue, type ListFields, listFieldsOf } from "../store/list-fields.js";
import type { ListOptions, ListSort } from "../store/record-lists.js";

/** What a list request asks of the store: its page, search, filters and order. */
export type ListRequest = Pick<ListOptions, "limit" | "offset" | "after" | "total" | "search" | "where" | "sort">;

/** A list request's query, read: what the store is asked, and the `sort` its cursors are made under (absent: the default order). */
export interface ParsedListQuery {
  readonly options: ListRequest;
  readonly sort?: string;
}

/** The order a query asks for: a sort key and its direction with the `sort` that named it, the default one, or none it may have. */
type Order = { readonly sort: ListSort; readonly key: string } | "default" | "invalid";

/** The prefix of a filter's query parameter: `where.<field>`. */
export const WHERE_PREFIX = "where.";

/** How many values a message lists before it says less. */
const LISTED = 20;

const listed = (names: readonly string[]) => (names.length <= LISTED ? names.join(", ") : `${names.slice(0, LISTED).join(", ")}, …`);

/** The order `sort` names (docs/api.md#lists); `sort=createdAt` is the default order, with its cursors. */
function orderOf(raw: string | undefined, fields: ListFields, issues: Issue[]): Order {
  if (raw === undefined) return "default";
  const descending = raw.startsWith("-");
  const field = descending ? raw.slice(1) : raw;
  if (!fields.sort.has(field)) {
    const keys = listed([...fields.sort.keys()]);
    issues.push({ path: ["sort"], message: `cannot sort by "${field}": sort by ${keys}, each with a leading - for descending` });
    return "invalid";
  }
  return field === "createdAt" && !descending ? "default" : { sort: { field, descending }, key: raw };
}

/** A filter's value as stored, or what is wrong with it: `""` is "holds none", for an optional field. */
function filterValue(field: FieldModel, raw: string): { value: string | number | null } | { issue: string } {
  const orNone = field.required ? "" : " (or empty for none)";
  if (raw === "") return field.required ? { issue: `cannot be empty: ${field.name} is required` } : { value: null };
  if (field.type === "boolean") {
    return raw === "true" || raw === "false" ? { value: raw === "true" ? 1 : 0 } : { issue: `must be true or false${orNone}` };
  }
  if (field.values) return field.values.includes(raw) ? { value: raw } : { issue: `must be one of: ${listed(field.values)}${orNone}` };
  // A ref: an id as a body gives one.
  return raw.length <= 128 && !raw.includes("\u0000") ? { value: raw } : { issue: `must be an id (at most 128 characters)${orNone}` };
}

/** The `where.<field>` filters of a query, as stored values (`null`: holds none); absent when there are none. */
function filtersOf(search: URLSearchParams, entity: EntityModel, fields: ListFields, issues: Issue[]): ListOptions["where"] {
  const where: Record<string, string | number | null> = {};
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (!name.startsWith(WHERE_PREFIX) || seen.has(name)) continue;
    seen.add(name);
    const field = fields.filter.get(name.slice(WHERE_PREFIX.length));
    const values = search.getAll(name);
    if (!field) {
      const filters = [...fields.filter.keys()].map((key) => `${WHERE_PREFIX}${key}`);
      const known = filters.length > 0 ? `its filters: ${listed(filters)}` : "it has none (enum, boolean and ref fields are)";
      issues.push({ path: [name], message: `is not a filter of ${entity.name}: ${known}` });
    } else if (values.length > 1) issues.push({ path: [name], message: "must be given once" });
    else {
      const read = filterValue(field, values[0] ?? "");
      if ("issue" in read) issues.push({ path: [name], message: read.issue });
      else where[field.name] = read.value;
    }
  }
  return Object.keys(where).length > 0 ? where : undefined;
}

/** What is wrong with a cursor made under another order than the query's; `null` when it is no cursor of a list, or one of this order. */
function otherOrder(cursor: string, order: Order): string | null {
  const sorted = decodeSortedCursor(cursor);
  const made = sorted ? `sort=${sorted.sort}` : decodeListCursor(cursor) ? "the default order" : null;
  if (made === null) return null;
  const asked = order === "default" || order === "invalid" ? "the default order" : `sort=${order.key}`;
  if (made === asked) return null;
  return `was made under ${made}, not ${asked}: page with the order it was made under, or start again`;
}

/** The position `after` names under the query's order, or `undefined` with an issue. */
function positionOf(cursor: string, order: Order, fields: ListFields, issues: Issue[]): ListPosition | SortedPosition | undefined {
  if (order === "invalid") return undefined;
  let position: ListPosition | SortedPosition | undefined;
  if (order === "default") position = decodeListCursor(cursor) ?? undefined;
  else {
    const sorted = decodeSortedCursor(cursor);
    const field = fields.sort.get(order.sort.field) ?? null;
    const value = sorted?.position.value;
    if (sorted && sorted.sort === order.key && holdsSortValue(field, value)) position = sorted.position;
  }
  if (position) return position;
  issues.push({ path: ["after"], message: otherOrder(cursor, order) ?? "is not a cursor this API gave (use a page's nextCursor)" });
  return undefined;
}

/**
 * A list request's query (docs/api.md#lists): `limit`, then `offset` or `after` (not both),
 * `total=exact`, `q`, `sort` and `where.<field>` filters, checked against `entity`. 400
 * `INVALID_QUERY` with an issue per parameter that cannot be used; other parameters are ignored.
 */
export function listQuery(search: URLSearchParams, entity: EntityModel): ParsedListQuery {
  const { limit = LIST_PAGE_LIMITS.default, offset = 0, after: cursor, total, q, sort } = parseQuery(search, LIST_PARAMETERS) as ListQuery;
  const fields = listFieldsOf(entity);
  const issues: Issue[] = [];
  const order = orderOf(sort, fields, issues);
  const where = filtersOf(search, entity, fields, issues);
  if (q !== undefined && fields.search.length === 0)
    issues.push({ path: ["q"], message: `cannot be used: ${entity.name} has no string field` });
  const after = cursor === undefined ? undefined : positionOf(cursor, order, fields, issues);
  if (cursor !== undefined && search.has("offset")) issues.push({ path: ["after"], message: "cannot be used with offset" });
  if (issues.length > 0) throw new ApiError("INVALID_QUERY", { issues });
  const sorted = typeof order === "object" ? order : undefined;
  const options: ListRequest = {
    limit,
    ...(after ? { after } : { offset }),
    ...(total === "exact" ? { total } : {}),
    ...(q === undefined ? {} : { search: q }),
    ...(where ? { where } : {}),
    ...(sorted ? { sort: sorted.sort } : {}),
  };
  return sorted ? { options, sort: sorted.key } : { options };
}
