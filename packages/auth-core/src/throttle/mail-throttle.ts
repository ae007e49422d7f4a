import { RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../store/database.js";
import { databaseLimiter, exclusively, throttleKey } from "./limiter.js";

/** Limits of the routes that send e-mail on request (docs/mail.md): per email and per client address, per hour. */
export const MAIL_LIMITS = {
  perEmail: 5,
  perAddress: 20,
  windowSeconds: 60 * 60,
} as const;

/** Counts requests that may send an e-mail, by email and by client address, in the database. */
export interface MailThrottle {
  /**
   * Counts one well-formed request for `email` from `address`, known email or not: `null` when
   * within both limits, else the seconds until the request may be made again.
   */
  admit(email: string, address: string): Promise<number | null>;
}

async function consume(limiter: ReturnType<typeof databaseLimiter>, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
  }
}

/**
 * Creates the throttle of one route (`forgot-password`, `resend-verification`: each counts on its
 * own): {@link MAIL_LIMITS} requests per email and per address within an hour from the first.
 * Keys are hashed, so the table holds no email address.
 */
export function createMailThrottle(database: Database, route: string): MailThrottle {
  const byEmail = databaseLimiter(database, {
    keyPrefix: `${route}-email`,
    points: MAIL_LIMITS.perEmail,
    durationSeconds: MAIL_LIMITS.windowSeconds,
    blockSeconds: 0,
  });
  const byAddress = databaseLimiter(database, {
    keyPrefix: `${route}-address`,
    points: MAIL_LIMITS.perAddress,
    durationSeconds: MAIL_LIMITS.windowSeconds,
    blockSeconds: 0,
  });
  return {
    admit(email, address) {
      return exclusively(database, async () => {
        const waits = [await consume(byAddress, throttleKey(address)), await consume(byEmail, throttleKey(email))];
        const refused = waits.filter((wait) => wait !== null);
        return refused.length > 0 ? Math.max(...refused) : null;
      });
    },
  };
}
