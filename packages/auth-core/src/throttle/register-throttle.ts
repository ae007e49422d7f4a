import type { Database } from "../store/database.js";
import { type AddressThrottle, createAddressThrottle } from "./address-throttle.js";

/** The window of register throttling: the limit counts registrations per address per hour. */
export const REGISTER_WINDOW_SECONDS = 60 * 60;

/** Default of `AUTH_REGISTER_LIMIT`: registrations per client address per hour (docs/api.md#login). */
export const DEFAULT_REGISTER_LIMIT = 100;

/** Counts registrations by client address, in the database. */
export type RegisterThrottle = AddressThrottle;

/**
 * Creates register throttling on the database's own tables, shared by every instance: `limit`
 * registrations per client address in a window of an hour that starts with its first one. The
 * register route counts every attempt that gets past body validation and finds room in the hash
 * queue, whatever its outcome (an email already taken included), so a flood can neither probe
 * emails nor get more than `limit` passwords hashed an hour. An address refused once is refused
 * from memory until its hour ends ({@link createAddressThrottle}).
 */
export function createRegisterThrottle(database: Database, options: { limit: number }): RegisterThrottle {
  return createAddressThrottle(database, { keyPrefix: "register-address", limit: options.limit, windowSeconds: REGISTER_WINDOW_SECONDS });
}
