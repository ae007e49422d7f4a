import { RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../store/database.js";
import { databaseLimiter, exclusively, throttleKey } from "./limiter.js";

/** Counts requests of one kind by client address, in the database. */
export interface AddressThrottle {
  /**
   * Counts one request for `address`, atomically, before any work is done for it: `null` when it
   * is within the limit, else the seconds until the address may make it again.
   */
  admit(address: string): Promise<number | null>;
}

/** How an {@link AddressThrottle} counts: its key prefix, and `limit` requests per window. */
export interface AddressThrottleOptions {
  readonly keyPrefix: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

/** Refused addresses kept in memory at most; past it, those whose window ended are let go first. */
const MAX_REMEMBERED_REFUSALS = 10_000;

/**
 * Creates a throttle by client address on the database's own table, shared by every instance:
 * `limit` requests per address in a window that starts with its first one. Keys are hashed, so
 * the table holds no address.
 *
 * Once an address is refused, this instance remembers until when, and refuses it again without
 * touching the database: a flood past the limit costs no write per request. The count stays in
 * the database, so every instance refuses the address from its first request past the limit.
 */
export function createAddressThrottle(database: Database, options: AddressThrottleOptions): AddressThrottle {
  const byAddress = databaseLimiter(database, {
    keyPrefix: options.keyPrefix,
    points: options.limit,
    durationSeconds: options.windowSeconds,
    blockSeconds: 0,
  });
  const refusedUntil = new Map<string, number>();
  const secondsUntil = (until: number): number => Math.max(1, Math.ceil((until - Date.now()) / 1000));
  const remember = (key: string, until: number): void => {
    if (refusedUntil.size >= MAX_REMEMBERED_REFUSALS) {
      const now = Date.now();
      for (const [other, otherUntil] of refusedUntil) if (otherUntil <= now) refusedUntil.delete(other);
      // Still full: forget the oldest; the database refuses it again on its next request.
      if (refusedUntil.size >= MAX_REMEMBERED_REFUSALS) refusedUntil.delete(refusedUntil.keys().next().value as string);
    }
    refusedUntil.set(key, until);
  };

  return {
    async admit(address) {
      const key = throttleKey(address);
      const until = refusedUntil.get(key);
      if (until !== undefined && until > Date.now()) return secondsUntil(until);
      refusedUntil.delete(key);
      return exclusively(database, async () => {
        try {
          await byAddress.consume(key);
          return null;
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          const refusedAt = Date.now() + rejection.msBeforeNext;
          remember(key, refusedAt);
          return secondsUntil(refusedAt);
        }
      });
    },
  };
}
