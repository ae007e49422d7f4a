import type { Kysely } from "kysely";
import type { EntityModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import type { AnyDB, Database } from "./database.js";
import { fromRow, type StoredRecord } from "./rows.js";
import { selectRows } from "./select-rows.js";

/** Where a page of records ends: its last record, by the collection's order (`createdAt`, then `id`). */
export interface ListPosition {
  /** The record's `createdAt` as stored: an ISO 8601 instant. */
  readonly createdAt: string;
  readonly id: string;
}

/** Up to this many records a list's `total` is always counted; above, only when asked (docs/api.md#lists). */
export const EXACT_TOTAL_LIMIT = 10_000;
/** How long a list known to hold more than {@link EXACT_TOTAL_LIMIT} records is not counted again. */
const LARGE_FOR_MS = 10_000;
/** The most lists (a table, or one owner's part of it) remembered as large at once. */
const LARGE_REMEMBERED = 1_000;

export interface ListOptions {
  readonly limit: number;
  /** Records to skip (offset paging). */
  readonly offset?: number;
  /** Only the records after this one in the collection's order (keyset paging): what `nextCursor` names. */
  readonly after?: ListPosition;
  /** Only records whose owner field (or, on the auth entity, id) equals this. */
  readonly ownedBy?: string;
  /** On a tenant entity, the organization whose records are listed (required there: no organization lists none). */
  readonly organizationId?: string;
  /** `exact` counts every record; `capped` (the default) counts up to {@link EXACT_TOTAL_LIMIT}. */
  readonly total?: "exact" | "capped";
}

/** A page of records in the collection's order. */
export interface ListPage {
  readonly rows: StoredRecord[];
  /** How many records there are in all; `null` when more than {@link EXACT_TOTAL_LIMIT} and not counted exactly. */
  readonly total: number | null;
  /** Where the next page starts; `null` on the last page. */
  readonly next: ListPosition | null;
}

/** The SQL of one kind of page and its counts. */
export interface ListSql {
  readonly page: string;
  readonly exact: string;
  readonly capped: string;
}

/**
 * The pages of an entity's records in `createdAt`, `id` order (docs/api.md#lists): by offset, or after a
 * position (keyset: one range of the `(createdAt, id)` index, however far in), with a count that
 * stops at {@link EXACT_TOTAL_LIMIT} unless asked for exactly. The SQL of each kind of page is
 * built once per table (kysely escapes every identifier), so listing builds no query.
 */
export class RecordLists {
  private readonly cache = new Map<string, ListSql>();
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
    const owned = options.ownedBy !== undefined;
    const { after } = options;
    const text = this.sqlOf(entity, owned, after !== undefined);
    const owner = [...(entity.tenant ? [options.organizationId ?? ""] : []), ...(owned ? [options.ownedBy] : [])];
    // One more than asked for: whether a next page exists, without counting.
    const paging = after ? [after.createdAt, after.id, options.limit + 1] : [options.limit + 1, options.offset ?? 0];
    const found = await selectRows<Record<string, unknown>>(this.database, text.page, [...owner, ...paging]);
    // A page that ends the list from the start (or from an offset inside it) has counted the list itself.
    const offset = options.offset ?? 0;
    const counted = !after && found.length <= options.limit && (found.length > 0 || offset === 0);
    const total = counted ? offset + found.length : await this.count(entity, text, owner, options.total === "exact");
    const rows = found.slice(0, options.limit).map((row) => fromRow(entity, row));
    const last = rows[rows.length - 1];
    return {
      rows,
      total,
      next: found.length > options.limit && last ? { createdAt: String(last.createdAt), id: String(last.id) } : null,
    };
  }

  /** How many records a list holds: every one when `exact`, else up to {@link EXACT_TOTAL_LIMIT} (`null` above). */
  private async count(entity: EntityModel, text: ListSql, owner: readonly unknown[], exact: boolean): Promise<number | null> {
    const key = `${entity.table}\u0000${owner.map(String).join("\u0000")}`;
    const now = Date.now();
    if (!exact && (this.large.get(key) ?? 0) > now) return null;
    const parameters = exact ? owner : [...owner, EXACT_TOTAL_LIMIT + 1];
    const counted = await selectRows<{ total: number | string }>(this.database, exact ? text.exact : text.capped, parameters);
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
