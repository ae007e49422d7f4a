import type { Kysely } from "kysely";
import type { AnyDB, Database } from "../store/database.js";
import { EVENT_TABLES } from "../store/event-table.js";
import type { EventPosition } from "./cursor.js";
import type { EventDetail, SecurityEventType } from "./event-types.js";
import type { SecurityEvent } from "./event-view.js";

/** A row of the events table: a {@link SecurityEvent} with `at` in ms since the epoch (`detail` is JSON text in the table). */
export interface EventRow extends Omit<SecurityEvent, "at"> {
  readonly at: number;
}

/** Which events a page holds, newest first. */
export interface EventQuery {
  readonly userId?: string;
  readonly type?: SecurityEventType;
  /** Only events before this one (the cursor of the previous page). */
  readonly before?: EventPosition;
  readonly limit: number;
}

const COLUMNS = ["id", "at", "type", "userId", "actorId", "email", "address", "userAgent", "sessionId", "detail"] as const;
const TABLE = EVENT_TABLES.events;

function toEventRow(row: Record<string, unknown>): EventRow {
  const text = (name: string) => (row[name] === null || row[name] === undefined ? null : String(row[name]));
  const detail = text("detail");
  return {
    id: String(row.id),
    at: Number(row.at),
    type: row.type as SecurityEventType,
    userId: text("userId"),
    actorId: text("actorId"),
    email: text("email"),
    address: text("address"),
    userAgent: text("userAgent"),
    sessionId: text("sessionId"),
    detail: detail === null ? {} : (JSON.parse(detail) as EventDetail),
  };
}

/** The events table: inserts, keyset pages newest first, and the purge of old rows. */
export class EventStore {
  constructor(readonly database: Database) {}

  /** Inserts one event through `db`: a transaction's, so it commits with the change it records, or the database's own. */
  async insert(db: Kysely<AnyDB>, row: EventRow): Promise<void> {
    const detail = Object.keys(row.detail).length > 0 ? JSON.stringify(row.detail) : null;
    await db
      .insertInto(TABLE)
      .values({ ...row, detail })
      .execute();
  }

  /**
   * A page of events, newest first (by time, then id), after `before`: a range of one of the
   * table's `(…, at, id)` indexes, so a page costs the same however many events there are.
   */
  async page(query: EventQuery): Promise<EventRow[]> {
    const rows = await this.pageQuery(query).execute();
    return rows.map(toEventRow);
  }

  /** The query of {@link page}, unrun (its plan is what tests check). */
  pageQuery(query: EventQuery) {
    let select = this.database.db.selectFrom(TABLE).select([...COLUMNS]);
    if (query.userId !== undefined) select = select.where("userId", "=", query.userId);
    if (query.type !== undefined) select = select.where("type", "=", query.type);
    const before = query.before;
    if (before) select = select.where((eb) => eb(eb.refTuple("at", "id"), "<", eb.tuple(before.at, before.id)));
    return select.orderBy("at", "desc").orderBy("id", "desc").limit(query.limit);
  }

  /**
   * Deletes at most `limit` of the oldest events from before `before` (ms since the epoch).
   *
   * @returns how many were deleted.
   */
  async purge(before: number, limit: number): Promise<number> {
    const old = this.database.db.selectFrom(TABLE).select("id").where("at", "<", before).orderBy("at").limit(limit);
    const result = await this.database.db.deleteFrom(TABLE).where("id", "in", old).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
