import { sql } from "kysely";
import type { RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../store/database.js";
import { TABLES } from "../store/migrate.js";
import { databaseLimiter, exclusively, throttleKey } from "./limiter.js";

type SqliteDatabase = Extract<Database, { readonly dialect: "sqlite" }>;

/** Limits of login throttling (docs/api.md#login). */
export const LOGIN_LIMITS = {
  /** Failures for one email within the window before it locks. */
  failuresPerEmail: 5,
  failuresPerAddress: 100,
  windowSeconds: 15 * 60,
  emailLockSeconds: 10 * 60,
  addressLockSeconds: 15 * 60,
} as const;

/** A refused attempt: the email or the address is locked. */
export interface LoginLock {
  /** Seconds until the attempt may be made again (`Retry-After`). */
  readonly retryAfter: number;
  /** This attempt is the one that locked the email or the address (the first refused since the lock began). */
  readonly started: boolean;
}

/**
 * Counts failed logins by email and by client address, in the database. Each attempt is counted as
 * a failure before its password is compared, so simultaneous attempts cannot all pass a check made
 * before any of them failed; a success forgives it.
 */
export interface LoginThrottle {
  /**
   * Counts one attempt for the email and the address, atomically. Returns the lock when either is
   * locked (the attempt must then be refused), else `null`.
   */
  countAttempt(email: string, address: string): Promise<LoginLock | null>;
  /** After a correct password: the email's count starts again, and the address's attempt is given back. */
  recordSuccess(email: string, address: string): Promise<void>;
  /** Gives back an attempt whose password was never compared (the service was unavailable). */
  withdrawAttempt(email: string, address: string): Promise<void>;
  /** Counts one failure for the address alone: an API key that is no live key (docs/api-keys.md). */
  countAddressFailure(address: string): Promise<void>;
  /** Lifts the lock of an email and starts its count again (a password reset proved who owns it). */
  unlockEmail(email: string): Promise<void>;
}

/**
 * Consumes one point; the lock when that went past the limit, else `null`. The consumption just
 * past the limit is the one that locks the key (the limiter blocks it then).
 */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<LoginLock | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (rejection) {
    if (rejection instanceof Error) throw rejection;
    const { msBeforeNext, consumedPoints } = rejection as RateLimiterRes;
    return { retryAfter: Math.max(1, Math.ceil(msBeforeNext / 1000)), started: consumedPoints === limiter.points + 1 };
  }
}

/**
 * A success's two writes on SQLite: the email's counter deleted and the address's attempt given
 * back (while its window lasts). They join the single-statement writes that arrive together
 * (`store/commit-group.ts`), so a burst of sign-ins shares durable commits instead of making two
 * each; the counters are the limiter's rows (`key`, `points`, `expire` in ms), read by it as before.
 */
async function forgiveTogether(database: SqliteDatabase, emailKey: string, addressKey: string): Promise<void> {
  const table = database.db.withoutPlugins();
  const forget = table.deleteFrom(TABLES.throttle).where("key", "=", emailKey).compile();
  const giveBack = table
    .updateTable(TABLES.throttle)
    .set((row) => ({ points: sql`${row.ref("points")} - 1` }))
    .where("key", "=", addressKey)
    .where((row) => row.or([row("expire", "is", null), row("expire", ">", Date.now())]))
    .compile();
  await Promise.all([forget, giveBack].map((query) => database.writes.run(query.sql, query.parameters)));
}

/**
 * Creates login throttling on the database's own tables, shared by every instance: 5 failures
 * for one normalized email lock it for 10 minutes, 100 from one address lock that for 15. Keys
 * are hashed, so the table holds no email addresses.
 */
export function createLoginThrottle(database: Database): LoginThrottle {
  // Attempts are counted before the comparison: the limit-th failure is still compared, the next attempt locks.
  const byEmail = databaseLimiter(database, {
    keyPrefix: "login-email",
    points: LOGIN_LIMITS.failuresPerEmail,
    durationSeconds: LOGIN_LIMITS.windowSeconds,
    blockSeconds: LOGIN_LIMITS.emailLockSeconds,
  });
  const byAddress = databaseLimiter(database, {
    keyPrefix: "login-address",
    points: LOGIN_LIMITS.failuresPerAddress,
    durationSeconds: LOGIN_LIMITS.windowSeconds,
    blockSeconds: LOGIN_LIMITS.addressLockSeconds,
  });

  return {
    countAttempt(email, address) {
      // One after the other: when the database is locked the first write fails after the busy timeout and
      // the second is not tried (together, a locked SQLite file made a login wait twice the timeout).
      return exclusively(database, async () => {
        const locks = [await consume(byEmail, throttleKey(email)), await consume(byAddress, throttleKey(address))];
        const locked = locks.filter((lock) => lock !== null);
        if (locked.length === 0) return null;
        return { retryAfter: Math.max(...locked.map((lock) => lock.retryAfter)), started: locked.some((lock) => lock.started) };
      });
    },
    recordSuccess(email, address) {
      const emailKey = byEmail.getKey(throttleKey(email));
      const addressKey = byAddress.getKey(throttleKey(address));
      if (database.dialect === "sqlite") return forgiveTogether(database, emailKey, addressKey);
      return exclusively(database, async () => {
        await byEmail.delete(throttleKey(email));
        await byAddress.reward(throttleKey(address), 1);
      });
    },
    countAddressFailure(address) {
      return exclusively(database, async () => {
        await consume(byAddress, throttleKey(address));
      });
    },
    unlockEmail(email) {
      return exclusively(database, async () => {
        await byEmail.delete(throttleKey(email));
      });
    },
    withdrawAttempt(email, address) {
      return exclusively(database, async () => {
        await byEmail.reward(throttleKey(email), 1);
        await byAddress.reward(throttleKey(address), 1);
      });
    },
  };
}
