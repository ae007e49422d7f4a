import type { TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { CompiledQuery, sql } from "kysely";
import { type Database, migrate, openDatabase } from "../../src/admin.js";
import { EventStore } from "../../src/events/event-store.js";

/** How many users the filled events belong to, and the types they take turns at. */
export const VOLUME_USERS = 100;
const TYPES = ["login.succeeded", "login.failed", "logout", "session.revoked"] as const;
/** When the first filled event happened (ms since the epoch); each next one 10 ms later. */
const START = Date.UTC(2026, 0, 1);

/** How filled events are spread: over how many users (`user-0`…) and how many of {@link TYPES}. */
export interface Spread {
  readonly users: number;
  readonly types: number;
}

/**
 * Fills the events table with `count` events, as many sign-ins would leave: users `user-0` on in
 * turn, the first `spread.types` of {@link TYPES} in turn, 10 ms apart, ids as the log makes them.
 * One statement, so a hundred thousand take a moment; the statistics are brought up to date after.
 */
export async function fillEvents(
  database: Database,
  count: number,
  spread: Spread = { users: VOLUME_USERS, types: TYPES.length },
): Promise<void> {
  const types = sql.raw(`'${TYPES.join("','")}'`);
  // Numbers written into the statement: bound, SQLite would take them for reals.
  const [start, kinds, users, last] = [START, spread.types, spread.users, count - 1].map((value) => sql.lit(value));
  if (database.dialect === "sqlite") {
    await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${last})
      insert into domain_auth_events (id, at, type, userId, actorId, email, address, userAgent, sessionId, detail)
      select printf('%012x%08x00000000', ${start} + i * 10, i), ${start} + i * 10,
        json_extract(json_array(${types}), '$[' || (i % ${kinds}) || ']'),
        'user-' || (i % ${users}), 'user-' || (i % ${users}), 'user' || (i % ${users}) || '@example.com',
        '192.0.2.1', 'Bench/1.0', null, '{"method":"password"}'
      from n`.execute(database.db);
    await sql`analyze`.execute(database.db);
    return;
  }
  await sql`insert into domain_auth_events ("id", "at", "type", "userId", "actorId", "email", "address", "userAgent", "sessionId", "detail")
    select lpad(to_hex(${start}::bigint + i * 10), 12, '0') || lpad(to_hex(i), 8, '0') || '00000000', ${start}::bigint + i * 10,
      (array[${types}])[1 + i % ${kinds}],
      'user-' || (i % ${users}), 'user-' || (i % ${users}), 'user' || (i % ${users}) || '@example.com',
      '192.0.2.1', 'Bench/1.0', null, '{"method":"password"}'
    from generate_series(0, ${last}) as i`.execute(database.db);
  await sql`analyze domain_auth_events`.execute(database.db);
}

/** A migrated database of a blog domain, with `count` events in it (spread as {@link fillEvents} does), and the event store over it. */
export async function eventVolume(
  testDatabase: TestDatabase,
  count: number,
  spread?: Spread,
): Promise<{ database: Database; store: EventStore }> {
  const database = await openDatabase(testDatabase.url);
  await migrate(database, domainOf(BLOG_YAML));
  await fillEvents(database, count, spread);
  return { database, store: new EventStore(database) };
}

/** The plan the database makes for a page query, as text: SQLite's `EXPLAIN QUERY PLAN` details, or PostgreSQL's `EXPLAIN`. */
export async function planOf(database: Database, compiled: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  const explain = database.dialect === "sqlite" ? "explain query plan " : "explain ";
  const { rows } = await database.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`${explain}${compiled.sql}`, [...compiled.parameters]),
  );
  return rows.map((row) => String(row.detail ?? row["QUERY PLAN"])).join("\n");
}
