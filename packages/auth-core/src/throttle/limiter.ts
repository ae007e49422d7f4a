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
 * lands inside (and rolls back with) another request's transaction.
 */
export function exclusively<T>(database: Database, work: () => Promise<T>): Promise<T> {
  return database.dialect === "sqlite" ? database.db.connection().execute(() => work()) : work();
}
