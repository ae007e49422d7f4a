import type { Kysely } from "kysely";
import type { EntityModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import type { AnyDB, Database } from "./database.js";
import { type ListKind, type ListSlot, type ListSort, type RefinedSql, refinedListSql } from "./list-sql.js";
import { fromRow, type StoredRecord } from "./rows.js";
import { selectRows } from "./select-rows.js";

/** Where a page of records ends: its last record, by the collection's order (`createdAt`, then `id`). */
export interface ListPosition {
  /** The record's `createdAt` as stored: an ISO 8601 instant. */
  readonly createdAt: string;
  readonly id: string;
}

/** Where a page of a list under `sort` ends: its last record's value of the sort key as stored (`NULL` as `null`), and its id. */
export interface SortedPosition {
  readonly value: string | number | null;
  readonly id: string;
}

export type { ListSort };

/** Up to this many records a list's `total` is always counted; above, only when asked (docs/api.md#lists). */
export const EXACT_TOTAL_LIMIT = 10_000;
/** How long a list known to hold more than {@link EXACT_TOTAL_LIMIT} records is not counted again. */
const LARGE_FOR_MS = 10_000;
/** The most lists (a table, or one owner's part of it) remembered as large at once. */
const LARGE_REMEMBERED = 1_000;
/** The most kinds of refined list whose SQL is kept: a model has few, but filters combine. */
const REFINED_KINDS_KEPT = 500;

export interface ListOptions {
  readonly limit: number;
  /** Records to skip (offset paging). */
  readonly offset?: number;
  /**
   * Only the records after this one in the list's order (keyset paging): what `nextCursor` names; a
   * {@link SortedPosition} under `sort`, a {@link ListPosition} without.
   */
  readonly after?: ListPosition | SortedPosition;
  /** Only records whose owner field (or, on the auth entity, id) equals this. */
  readonly ownedBy?: string;
  /** On a tenant entity, the organization whose records are listed (required there: no organization lists none). */
  readonly organizationId?: string;
  /** `exact` counts every record; `capped` (the default) counts up to {@link EXACT_TOTAL_LIMIT}. */
  readonly total?: "exact" | "capped";
  /** Only records one of whose searched columns (`listFieldsOf`) holds this text, ignoring case (ASCII only on SQLite): text, not a pattern. */
  readonly search?: string;
  /** Only records whose column holds the stored value given (`null`: holds none), every one of them: filterable fields only. */
  readonly where?: Readonly<Record<string, string | number | null>>;
  /** The order, when not the default `createdAt`, `id`: a sort key of `listFieldsOf`, `NULL`s last. */
  readonly sort?: ListSort;
}

/** A page of records in the collection's order. */
export interface ListPage {
  readonly rows: StoredRecord[];
  /** How many records there are in all; `null` when more than {@link EXACT_TOTAL_LIMIT} and not counted exactly. */
  readonly total: number | null;
  /** Where the next page starts (a {@link SortedPosition} under `sort`); `null` on the last page. */
  readonly next: ListPosition | SortedPosition | null;
}

/** The SQL of one kind of page and its counts. */
export interface ListSql {
  readonly page: string;
  readonly exact: string;
  readonly capped: string;
}

/** A list to count: its counts' SQL, their parameters (the capped count's cap after them), and its name among large lists. */
interface Counting {
  readonly exact: string;
  readonly capped: string;
  readonly parameters: readonly unknown[];
  readonly key: string;
}

/**
 * The pages of an entity's records in `createdAt`, `id` order (docs/api.md#lists): by offset, or after a
 * position (keyset: one range of the `(createdAt, id)` index, however far in), with a count that
 * stops at {@link EXACT_TOTAL_LIMIT} unless asked for exactly. The SQL of each kind of page is
 * built once per table (kysely escapes every identifier), so listing builds no query.
 */
export class RecordLists {
  private readonly cache = new Map<string, ListSql>();
  private readonly refined = new Map<string, RefinedSql>();
  /**
   * Lists found to hold more than {@link EXACT_TOTAL_LIMIT} records, until when: their pages answer
   * without counting (counting up to the limit costs more than the page), so a page of a million
   * records costs what a page of a thousand does. A list that shrank below the limit shows its
   * total again within {@link LARGE_FOR_MS}.
   */
  private readonly large = new Map<string, number>();

  constructor(private readonly database: Database) {}

  private ownerColumn(entity: EntityModel): string {
    return entity.isAuthEntity ? "id" : (entity.ownerField ?? "id");
  }

  /**
   * The SQL of a kind of page and of its counts (what tests read the plans of). The page's
   * parameters, in order: the organization (on a tenant entity), the owner (when owned), the position (when after), the limit, the offset
   * (when not after).
   */
  sqlOf(entity: EntityModel, owned: boolean, after: boolean): ListSql {
    const key = `${owned ? "owned" : "all"}:${after ? "after" : "offset"}:${entity.table}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const db: Kysely<AnyDB> = this.database.db;
    let query = db.selectFrom(entity.table);
    // A tenant entity's lists are one organization's: the first parameter, before the owner.
    if (entity.tenant) query = query.where(ORGANIZATION_ID_FIELD, "=", "organization");
    if (owned) query = query.where(this.ownerColumn(entity), "=", "owner");
    const filtered = after ? query.where((eb) => eb(eb.refTuple("createdAt", "id"), ">", eb.tuple("at", "id"))) : query;
    const ordered = filtered.selectAll().orderBy("createdAt").orderBy("id").limit(2);
    const page = (after ? ordered : ordered.offset(3)).compile();
    const exact = query.select((eb) => eb.fn.countAll<number | string>().as("total")).compile();
    const capped = db
      .selectFrom(query.select("id").limit(4).as("capped"))
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .compile();
    const owner = [...(entity.tenant ? ["organization"] : []), ...(owned ? ["owner"] : [])];
    const expected = [...owner, ...(after ? ["at", "id", 2] : [2, 3])];
    if (
      JSON.stringify(page.parameters) !== JSON.stringify(expected) ||
      JSON.stringify(exact.parameters) !== JSON.stringify(owner) ||
      JSON.stringify(capped.parameters) !== JSON.stringify([...owner, 4])
    )
      throw new Error(`unexpected parameters of the list queries of ${entity.table}`);
    const found = { page: page.sql, exact: exact.sql, capped: capped.sql };
    this.cache.set(key, found);
    return found;
  }

  async list(entity: EntityModel, options: ListOptions): Promise<ListPage> {
    if (options.search !== undefined || options.where !== undefined || options.sort !== undefined) return this.listRefined(entity, options);
    const owned = options.ownedBy !== undefined;
    const after = options.after as ListPosition | undefined;
    const text = this.sqlOf(entity, owned, after !== undefined);
    const owner = [...(entity.tenant ? [options.organizationId ?? ""] : []), ...(owned ? [options.ownedBy] : [])];
    // One more than asked for: whether a next page exists, without counting.
    const paging = after ? [after.createdAt, after.id, options.limit + 1] : [options.limit + 1, options.offset ?? 0];
    const found = await selectRows<Record<string, unknown>>(this.database, text.page, [...owner, ...paging]);
    // A page that ends the list from the start (or from an offset inside it) has counted the list itself.
    const offset = options.offset ?? 0;
    const counted = !after && found.length <= options.limit && (found.length > 0 || offset === 0);
    const total = counted
      ? offset + found.length
      : await this.count(
          entity,
          { ...text, key: `${entity.table}\u0000${owner.map(String).join("\u0000")}`, parameters: owner },
          options.total === "exact",
        );
    const rows = found.slice(0, options.limit).map((row) => fromRow(entity, row));
    const last = rows[rows.length - 1];
    return {
      rows,
      total,
      next: found.length > options.limit && last ? { createdAt: String(last.createdAt), id: String(last.id) } : null,
    };
  }

  /**
   * The SQL of a kind of refined list (searched, filtered or sorted), built once per kind and table
   * and kept for the {@link REFINED_KINDS_KEPT} latest kinds.
   */
  refinedSqlOf(entity: EntityModel, kind: ListKind): RefinedSql {
    const key = `${entity.table}\u0000${JSON.stringify(kind)}`;
    const cached = this.refined.get(key);
    if (cached) return cached;
    const found = refinedListSql(this.database.db, entity, kind, this.ownerColumn(entity));
    if (JSON.stringify(found.cappedSlots) !== JSON.stringify([...found.countSlots, "cap"])) {
      throw new Error(`unexpected parameters of the list queries of ${entity.table}`);
    }
    if (this.refined.size >= REFINED_KINDS_KEPT) this.refined.delete(this.refined.keys().next().value as string);
    this.refined.set(key, found);
    return found;
  }

  /** A page of a searched, filtered or sorted list: as {@link list}, by the SQL of its kind. */
  private async listRefined(entity: EntityModel, options: ListOptions): Promise<ListPage> {
    const sort = options.sort ?? { field: "createdAt", descending: false };
    const after = positionOf(options.after);
    const where = Object.entries(options.where ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const kind: ListKind = {
      owned: options.ownedBy !== undefined,
      searched: options.search !== undefined,
      where: where.map(([field, value]) => [field, value === null] as const),
      sort,
      after: after === undefined ? "none" : after.value === null ? "null" : "value",
    };
    const text = this.refinedSqlOf(entity, kind);
    const values = slotValues(options, after, Object.fromEntries(where));
    const found = await selectRows<Record<string, unknown>>(this.database, text.page, text.pageSlots.map(values));
    const offset = options.offset ?? 0;
    const counted = !after && found.length <= options.limit && (found.length > 0 || offset === 0);
    const parameters = text.countSlots.map(values);
    const total = counted
      ? offset + found.length
      : await this.count(
          entity,
          { ...text, parameters, key: `${text.exact}\u0000${parameters.map(String).join("\u0000")}` },
          options.total === "exact",
        );
    const last = found.length > options.limit ? found[options.limit - 1] : undefined;
    const next = last ? { value: storedValue(last[sort.field]), id: String(last.id) } : null;
    return {
      rows: found.slice(0, options.limit).map((row) => fromRow(entity, row)),
      total,
      next: next && options.sort === undefined ? { createdAt: String(next.value), id: next.id } : next,
    };
  }

  /**
   * How many records a list holds: every one when `exact`, else up to {@link EXACT_TOTAL_LIMIT} (`null` above).
   * `key` names the list (its table, filters and their values) in the memory of large ones; the capped
   * count takes the cap after the parameters of the exact one.
   */
  private async count(entity: EntityModel, list: Counting, exact: boolean): Promise<number | null> {
    const { key } = list;
    const now = Date.now();
    if (!exact && (this.large.get(key) ?? 0) > now) return null;
    const parameters = exact ? list.parameters : [...list.parameters, EXACT_TOTAL_LIMIT + 1];
    const counted = await selectRows<{ total: number | string }>(this.database, exact ? list.exact : list.capped, parameters);
    const total = Number(counted[0]?.total ?? Number.NaN);
    if (Number.isNaN(total)) throw new Error(`no count of ${entity.table}`);
    if (total <= EXACT_TOTAL_LIMIT) {
      this.large.delete(key);
      return total;
    }
    if (this.large.size >= LARGE_REMEMBERED) this.large.delete(this.large.keys().next().value as string);
    this.large.set(key, now + LARGE_FOR_MS);
    return exact ? total : null;
  }
}

/** A position as the refined lists read it: a list position's `createdAt` is the value of its sort key. */
function positionOf(after: ListPosition | SortedPosition | undefined): SortedPosition | undefined {
  if (after === undefined || "value" in after) return after;
  return { value: after.createdAt, id: after.id };
}

/** A stored value as a position holds it: text or a number (a boolean's 0 or 1), `null` for none. */
function storedValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "string") return value;
  if (typeof value === "bigint" || typeof value === "boolean") return Number(value);
  return String(value);
}

/** LIKE's special characters (and its escape) in a text searched for, escaped: the text matches as written. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/** What each slot of a refined list's SQL is bound to for one request. */
function slotValues(options: ListOptions, after: SortedPosition | undefined, where: Record<string, unknown>): (slot: ListSlot) => unknown {
  const pattern = options.search === undefined ? undefined : likePattern(options.search);
  const fixed: Record<string, unknown> = {
    organization: options.organizationId ?? "",
    owner: options.ownedBy,
    search: pattern,
    "after:value": after?.value,
    "after:id": after?.id,
    // One more than asked for: whether a next page exists, without counting.
    limit: options.limit + 1,
    offset: options.offset ?? 0,
  };
  return (slot) => (slot.startsWith("where:") ? where[slot.slice("where:".length)] : fixed[slot]);
}
