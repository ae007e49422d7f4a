import { createHash } from "node:crypto";
import { type RateLimiterAbstract, RateLimiterPostgres, type RateLimiterRes, RateLimiterSQLite } from "rate-limiter-flexible";
import type { Database } from "../store/database.js";
import { TABLES } from "../store/migrate.js";

/** Limits of login throttling (CONTRACT 3.1). */
export const LOGIN_LIMITS = {
  /** Failures for one email within the window before it locks. */
  failuresPerEmail: 5,
  failuresPerAddress: 100,
  windowSeconds: 15 * 60,
  emailLockSeconds: 10 * 60,
  addressLockSeconds: 15 * 60,
} as const;

/** Counts failed logins by email and by client address, in the database. */
export interface LoginThrottle {
  /** Seconds to wait when the email or the address is locked, else `null`. */
  retryAfter(email: string, address: string): Promise<number | null>;
  recordFailure(email: string, address: string): Promise<void>;
  recordSuccess(email: string): Promise<void>;
}

function limiter(database: Database, keyPrefix: string, points: number, blockDuration: number): RateLimiterAbstract {
  const options = {
    tableName: TABLES.throttle,
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix,
    points,
    duration: LOGIN_LIMITS.windowSeconds,
    blockDuration,
  };
  return database.dialect === "sqlite"
    ? new RateLimiterSQLite({ ...options, storeClient: database.client, storeType: "better-sqlite3" })
    : new RateLimiterPostgres({ ...options, storeClient: database.client, storeType: "pool" });
}

function digest(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

function lockedFor(result: RateLimiterRes | null, points: number): number | null {
  if (!result || result.consumedPoints <= points) return null;
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
}

async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof Error) throw rejection;
  }
}

/**
 * Creates login throttling on the database's own tables, shared by every instance: 5 failures
 * for one normalized email lock it for 10 minutes, 100 from one address lock that for 15. Keys
 * are hashed, so the table holds no email addresses.
 */
export function createLoginThrottle(database: Database): LoginThrottle {
  // A key locks on the failure that goes past `points`, so points is the limit minus one.
  const emailPoints = LOGIN_LIMITS.failuresPerEmail - 1;
  const addressPoints = LOGIN_LIMITS.failuresPerAddress - 1;
  const byEmail = limiter(database, "login-email", emailPoints, LOGIN_LIMITS.emailLockSeconds);
  const byAddress = limiter(database, "login-address", addressPoints, LOGIN_LIMITS.addressLockSeconds);
  // On SQLite the limiter writes through the same connection as the store: take the store's
  // connection lock, so a counter never lands inside (and rolls back with) another request's transaction.
  const exclusive = <T>(work: () => Promise<T>): Promise<T> =>
    database.dialect === "sqlite" ? database.db.connection().execute(() => work()) : work();

  return {
    async retryAfter(email, address) {
      const [emailState, addressState] = await exclusive(() => Promise.all([byEmail.get(digest(email)), byAddress.get(digest(address))]));
      const waits = [lockedFor(emailState, emailPoints), lockedFor(addressState, addressPoints)].filter((wait) => wait !== null);
      return waits.length > 0 ? Math.max(...waits) : null;
    },
    async recordFailure(email, address) {
      // One after the other: when the database is locked the first write fails after the busy timeout and
      // the second is not tried (together, a locked SQLite file made a failed login wait twice the timeout).
      await exclusive(async () => {
        await consume(byEmail, digest(email));
        await consume(byAddress, digest(address));
      });
    },
    async recordSuccess(email) {
      await exclusive(() => byEmail.delete(digest(email)));
    },
  };
}
