import { timeColumn } from "./columns.js";
import type { Database } from "./database.js";
import { createTableStep, type Step } from "./migration-step.js";

/** The table of security events (docs/events.md); entity tables never start with `domain_auth_`. */
export const EVENT_TABLES = {
  /** One row per event: `at` in ms since the epoch, `detail` a JSON object or `null`. */
  events: "domain_auth_events",
} as const;

/**
 * The keys pages are read by, newest first, each ending in `(at, id)`: everyone's events, one
 * user's, one type's. The first also serves the retention purge (oldest first).
 */
export const EVENT_INDEXES = {
  everyone: `${EVENT_TABLES.events}__at_id`,
  byUser: `${EVENT_TABLES.events}__userId_at_id`,
  byType: `${EVENT_TABLES.events}__type_at_id`,
} as const;

const INDEX_COLUMNS: Readonly<Record<keyof typeof EVENT_INDEXES, readonly string[]>> = {
  everyone: ["at", "id"],
  byUser: ["userId", "at", "id"],
  byType: ["type", "at", "id"],
};

/** The events table and its three keyset indexes. */
export function eventSteps(dialect: Database["dialect"]): Step[] {
  const time = timeColumn(dialect);
  const table = EVENT_TABLES.events;
  const indexes = (Object.keys(EVENT_INDEXES) as (keyof typeof EVENT_INDEXES)[]).map(
    (key): Step => ({
      name: `create index ${EVENT_INDEXES[key]}`,
      run: (trx) =>
        trx.schema
          .createIndex(EVENT_INDEXES[key])
          .ifNotExists()
          .on(table)
          .columns([...INDEX_COLUMNS[key]])
          .execute(),
    }),
  );
  return [
    createTableStep(table, (table) =>
      table
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("at", time, (column) => column.notNull())
        .addColumn("type", "text", (column) => column.notNull())
        .addColumn("userId", "text")
        .addColumn("actorId", "text")
        .addColumn("email", "text")
        .addColumn("address", "text")
        .addColumn("userAgent", "text")
        .addColumn("sessionId", "text")
        .addColumn("detail", "text"),
    ),
    ...indexes,
  ];
}
