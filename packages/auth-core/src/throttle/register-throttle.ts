import { RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../store/database.js";
import { databaseLimiter, exclusively, throttleKey } from "./limiter.js";

/** The window of register throttling: the limit counts registrations per address per hour. */
export const REGISTER_WINDOW_SECONDS = 60 * 60;

/** Default of `AUTH_REGISTER_LIMIT`: registrations per client address per hour (CONTRACT 3.1). */
export const DEFAULT_REGISTER_LIMIT = 100;

/** Counts registrations by client address, in the database. */
export interface RegisterThrottle {
  /**
   * Counts one registration for `address`, atomically, before any work is done for it: `null`
   * when it is within the limit, else the seconds until the address may register again.
   */
  admit(address: string): Promise<number | null>;
}

/** Refused addresses kept in memory at most; past it, those whose window ended are let go first. */
const MAX_REMEMBERED_REFUSALS = 10_000;

/**
 * Creates register throttling on the database's own tables, shared by every instance: `limit`
 * registrations per client address in a window of an hour that starts with its first one. The
 * register route counts every attempt that gets past body validation and finds room in the hash
 * queue, whatever its outcome (an email already taken included), so a flood can neither probe
 * emails nor get more than `limit` passwords hashed an hour.
 *
 * Once an address is refused, this instance remembers until when, and refuses it again without
 * touching the database: a flood past the limit costs no write per request. The count stays in
 * the database, so every instance refuses the address from its first request past the limit.
 */
export function createRegisterThrottle(database: Database, options: { limit: number }): RegisterThrottle {
  const byAddress = databaseLimiter(database, {
    keyPrefix: "register-address",
    points: options.limit,
    durationSeconds: REGISTER_WINDOW_SECONDS,
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
