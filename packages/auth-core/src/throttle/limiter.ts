import { createHash } from "node:crypto";
import { type RateLimiterAbstract, RateLimiterPostgres, RateLimiterSQLite } from "rate-limiter-flexible";
import type { Database } from "../store/database.js";
import { TABLES } from "../store/migrate.js";

/** How one counter of a throttle behaves: its key prefix, points per window, window and lock. */
export interface LimiterOptions {
  readonly keyPrefix: string;
  /** Points a key may spend in one window; the next one is refused. */
  readonly points: number;
  readonly durationSeconds: number;
  /** How long a key stays refused once over; `0`: until its window ends. */
  readonly blockSeconds: number;
}

/** A counter in the database's throttle table, shared by every instance on that database. */
export function databaseLimiter(database: Database, options: LimiterOptions): RateLimiterAbstract {
  const common = {
    tableName: TABLES.throttle,
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    blockDuration: options.blockSeconds,
  };
  return database.dialect === "sqlite"
    ? new RateLimiterSQLite({ ...common, storeClient: database.client, storeType: "better-sqlite3" })
    : new RateLimiterPostgres({ ...common, storeClient: database.client, storeType: "pool" });
}

/** A key as stored: hashed, so the table holds no email or client address. */
export function throttleKey(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

/**
 * Runs counter work so it cannot interfere with the store. On SQLite the limiter writes through
 * the same connection as the store: the store's connection lock is taken, so a counter never
 * lands inside (and rolls back with) another request's transaction. Every count also lets the
 * table's expired rows be purged ({@link sweepSoon}).
 */
export function exclusively<T>(database: Database, work: () => Promise<T>): Promise<T> {
  sweepSoon(database);
  return database.dialect === "sqlite" ? database.db.connection().execute(() => work()) : work();
}

/** The sweep of expired counters runs at most this often per instance (per open database). */
const SWEEP_INTERVAL_MS = 60_000;
/** A sweep deletes in batches of this many rows, at most {@link MAX_SWEEP_BATCHES} of them. */
export const THROTTLE_SWEEP_BATCH = 1000;
const MAX_SWEEP_BATCHES = 10;
const lastSweeps = new WeakMap<Database, number>();

/**
 * Purges expired counters after the request under way, at most once every {@link SWEEP_INTERVAL_MS}
 * per instance. The limiter's own clearing is off (it would run on a timer in every process, in one
 * unbounded statement), and without a sweep every email or address that ever failed a sign-in would
 * stay a row. A sweep that fails is let go: the next one, a minute later, deletes the same rows.
 */
function sweepSoon(database: Database): void {
  const now = Date.now();
  if (now - (lastSweeps.get(database) ?? Number.NEGATIVE_INFINITY) < SWEEP_INTERVAL_MS) return;
  lastSweeps.set(database, now);
  setImmediate(() => {
    purgeExpiredCounters(database, Date.now()).catch(() => {});
  });
}

/**
 * Deletes the throttle table's counters that expired before `now` (ms since the epoch, the
 * limiter's clock), in batches of {@link THROTTLE_SWEEP_BATCH}, at most {@link MAX_SWEEP_BATCHES}
 * of them; each row is checked again as it is deleted, so a counter that a request has just
 * started again is kept.
 * @returns how many rows were deleted.
 */
export async function purgeExpiredCounters(database: Database, now: number): Promise<number> {
  const db = database.db;
  let deleted = 0;
  for (let batch = 0; batch < MAX_SWEEP_BATCHES; batch++) {
    const expired = db.selectFrom(TABLES.throttle).select("key").where("expire", "<", now).limit(THROTTLE_SWEEP_BATCH);
    const result = await db.deleteFrom(TABLES.throttle).where("key", "in", expired).where("expire", "<", now).executeTakeFirst();
    const count = Number(result.numDeletedRows);
    deleted += count;
    if (count < THROTTLE_SWEEP_BATCH) break;
  }
  return deleted;
}
