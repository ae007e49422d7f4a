import type { Database } from "../store/database.js";
import { type AddressThrottle, createAddressThrottle } from "./address-throttle.js";

/**
 * The limit of `POST login/passkey/options`: each call stores a challenge row for
 * anyone who asks, so one client address gets this many a minute, then 429 with `Retry-After`.
 */
export const PASSKEY_OPTIONS_LIMITS = { perAddress: 30, windowSeconds: 60 } as const;

/** Counts the sign-in challenges asked for by client address, in the database, shared by every instance. */
export function createPasskeyOptionsThrottle(database: Database): AddressThrottle {
  return createAddressThrottle(database, {
    keyPrefix: "passkey-options-address",
    limit: PASSKEY_OPTIONS_LIMITS.perAddress,
    windowSeconds: PASSKEY_OPTIONS_LIMITS.windowSeconds,
  });
}
