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

/**
 * Counts failed logins by email and by client address, in the database. Each attempt is counted as
 * a failure before its password is compared, so simultaneous attempts cannot all pass a check made
 * before any of them failed; a success forgives it.
 */
export interface LoginThrottle {
  /**
   * Counts one attempt for the email and the address, atomically. Returns the seconds to wait when
   * either is locked (the attempt must then be refused), else `null`.
   */
  countAttempt(email: string, address: string): Promise<number | null>;
  /** After a correct password: the email's count starts again, and the address's attempt is given back. */
  recordSuccess(email: string, address: string): Promise<void>;
  /** Gives back an attempt whose password was never compared (the service was unavailable). */
  withdrawAttempt(email: string, address: string): Promise<void>;
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

/** Consumes one point; the seconds to wait when that went past the limit, else `null`. */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (rejection) {
    if (rejection instanceof Error) throw rejection;
    return Math.max(1, Math.ceil((rejection as RateLimiterRes).msBeforeNext / 1000));
  }
}

/**
 * Creates login throttling on the database's own tables, shared by every instance: 5 failures
 * for one normalized email lock it for 10 minutes, 100 from one address lock that for 15. Keys
 * are hashed, so the table holds no email addresses.
 */
export function createLoginThrottle(database: Database): LoginThrottle {
  // Attempts are counted before the comparison: the limit-th failure is still compared, the next attempt locks.
  const byEmail = limiter(database, "login-email", LOGIN_LIMITS.failuresPerEmail, LOGIN_LIMITS.emailLockSeconds);
  const byAddress = limiter(database, "login-address", LOGIN_LIMITS.failuresPerAddress, LOGIN_LIMITS.addressLockSeconds);
  // On SQLite the limiter writes through the same connection as the store: take the store's
  // connection lock, so a counter never lands inside (and rolls back with) another request's transaction.
  const exclusive = <T>(work: () => Promise<T>): Promise<T> =>
    database.dialect === "sqlite" ? database.db.connection().execute(() => work()) : work();

  return {
    countAttempt(email, address) {
      // One after the other: when the database is locked the first write fails after the busy timeout and
      // the second is not tried (together, a locked SQLite file made a login wait twice the timeout).
      return exclusive(async () => {
        const waits = [await consume(byEmail, digest(email)), await consume(byAddress, digest(address))];
        const locked = waits.filter((wait) => wait !== null);
        return locked.length > 0 ? Math.max(...locked) : null;
      });
    },
    recordSuccess(email, address) {
      return exclusive(async () => {
        await byEmail.delete(digest(email));
        await byAddress.reward(digest(address), 1);
      });
    },
    withdrawAttempt(email, address) {
      return exclusive(async () => {
        await byEmail.reward(digest(email), 1);
        await byAddress.reward(digest(address), 1);
      });
    },
  };
}
