import type { Database } from "../store/database.js";
import { type AddressThrottle, createAddressThrottle } from "./address-throttle.js";

/**
 * Provider sign-ins (docs/providers.md#the-flow): each start stores a flow, each callback makes a
 * request to the provider and may sign someone in, so one client address gets this many of each a
 * minute: then the browser goes to `/login?error=TOO_MANY_ATTEMPTS`.
 */
export const PROVIDER_FLOW_LIMITS = { perAddress: 30, windowSeconds: 60 } as const;

/** Counts the starts (`start`) or the callbacks (`callback`) of provider sign-ins by client address, in the database, shared by every instance. */
export function createProviderFlowThrottle(database: Database, step: "start" | "callback"): AddressThrottle {
  return createAddressThrottle(database, {
    keyPrefix: `provider-${step}-address`,
    limit: PROVIDER_FLOW_LIMITS.perAddress,
    windowSeconds: PROVIDER_FLOW_LIMITS.windowSeconds,
  });
}
