import type { RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../store/database.js";
import { databaseLimiter, exclusively, throttleKey } from "./limiter.js";

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
  /** Lifts the lock of an email and starts its count again (a password reset proved who owns it). */
  unlockEmail(email: string): Promise<void>;
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
        const waits = [await consume(byEmail, throttleKey(email)), await consume(byAddress, throttleKey(address))];
        const locked = waits.filter((wait) => wait !== null);
        return locked.length > 0 ? Math.max(...locked) : null;
      });
    },
    recordSuccess(email, address) {
      return exclusively(database, async () => {
        await byEmail.delete(throttleKey(email));
        await byAddress.reward(throttleKey(address), 1);
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
