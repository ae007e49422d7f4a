import type { Database } from "../store/database.js";
import { type AddressThrottle, createAddressThrottle } from "./address-throttle.js";

/**
 * Provider callbacks (docs/providers.md#the-flow) each make a request to the provider and may sign
 * someone in, so one client address gets this many a minute, as sign-ins are counted: then the
 * callback goes to `/login?error=TOO_MANY_ATTEMPTS`.
 */
export const PROVIDER_CALLBACK_LIMITS = { perAddress: 30, windowSeconds: 60 } as const;

/** Counts the provider callbacks by client address, in the database, shared by every instance. */
export function createProviderCallbackThrottle(database: Database): AddressThrottle {
  return createAddressThrottle(database, {
    keyPrefix: "provider-callback-address",
    limit: PROVIDER_CALLBACK_LIMITS.perAddress,
    windowSeconds: PROVIDER_CALLBACK_LIMITS.windowSeconds,
  });
}
