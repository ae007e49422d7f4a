import type { Caller, PolicyAuth, PolicyRecord } from "./subjects.js";
import { ALLOWED, forbidden, type Refusal, type Verdict, verbOf } from "./verdict.js";

/**
 * `true` when `role` is the setup role: the administrator, who manages every user. Never under
 * `auth.type: none` (`auth` is `null`).
 *
 * @example holdsSetupRole(model.auth, caller?.role)
 */
export function holdsSetupRole(auth: PolicyAuth | null, role: unknown): boolean {
  return auth !== null && role === auth.setupRole;
}

/**
 * Another user named in a request (`?userId=` of `events`, `api-keys` and `sessions`,
 * docs/api.md#permissions): only the setup role may name someone else; anyone may name themselves.
 * `what` says what naming them would do ("read another user's events").
 */
export function checkOtherUser(auth: PolicyAuth, caller: NonNullable<Caller>, userId: string | null, what: string): Verdict {
  if (userId === null || userId === caller.id || holdsSetupRole(auth, caller.role)) return ALLOWED;
  return forbidden(`Only the ${auth.setupRole} role may ${what}`);
}

/**
 * An operation only the setup role may call (`setupRoleOnly` in the endpoint catalog: the activity
 * summary of `GET events/summary`, docs/api.md#security-events).
 */
export function checkSetupRoleOnly(auth: PolicyAuth, caller: Caller): Verdict {
  if (holdsSetupRole(auth, caller?.role)) return ALLOWED;
  return forbidden(`Only the ${auth.setupRole} role may do this`);
}

/**
 * Setup-role protection (docs/api.md#permissions): only a setup-role caller may update or delete a user who
 * holds the setup role.
 */
export function checkSetupRoleUser(auth: PolicyAuth, caller: Caller, user: PolicyRecord, operation: "update" | "delete"): Verdict {
  if (!holdsSetupRole(auth, user.role) || holdsSetupRole(auth, caller?.role)) return ALLOWED;
  return forbidden(`Only the ${auth.setupRole} role may ${verbOf(operation)} this user`);
}

/** A write to a user: deleting it, or updating it with these values. */
export type UserWrite = "delete" | { readonly values: PolicyRecord };

/**
 * `true` when `write` takes `user` out of the setup role: deleting a setup-role user, or giving
 * one another role. Then {@link checkLastAdmin} decides, given how many hold the role.
 */
export function removesSetupRoleHolder(auth: PolicyAuth, user: PolicyRecord, write: UserWrite): boolean {
  if (!holdsSetupRole(auth, user.role)) return false;
  return write === "delete" || (Object.hasOwn(write.values, "role") && write.values.role !== auth.setupRole);
}

const LAST_ADMIN: Refusal = { allowed: false, status: 409, code: "LAST_ADMIN", message: "This is the last administrator" };

/**
 * Last admin (docs/api.md#permissions): a write that {@link removesSetupRoleHolder} is refused with 409
 * `LAST_ADMIN` while `holders` (the users holding the setup role now, that one included) is 1.
 */
export function checkLastAdmin(holders: number): Verdict {
  return holders <= 1 ? LAST_ADMIN : ALLOWED;
}
