import type { Database } from "../store/database.js";
import { type AddressThrottle, createAddressThrottle } from "./address-throttle.js";

/** Organization invitations (docs/organizations.md#invitations): each sends an e-mail, so one user sends this many an hour. */
export const INVITATION_LIMITS = { perUser: 30, windowSeconds: 3600 } as const;

/** Counts the invitations each user sends (keyed by user id), in the database, shared by every instance. */
export function createInvitationThrottle(database: Database): AddressThrottle {
  return createAddressThrottle(database, {
    keyPrefix: "org-invitation-user",
    limit: INVITATION_LIMITS.perUser,
    windowSeconds: INVITATION_LIMITS.windowSeconds,
  });
}
