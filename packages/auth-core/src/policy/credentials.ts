import { holdsSetupRole } from "./setup-role.js";
import type { Caller, PolicyAuth, PolicyRecord } from "./subjects.js";
import { ALLOWED, forbidden, type Verdict } from "./verdict.js";

/** What an update of a user changes of its credentials. */
export interface CredentialChanges {
  /** A `password` is sent. */
  readonly password: boolean;
  /** An `email` other than the user's current one is sent. */
  readonly email: boolean;
}

/** Which credentials an update of `user` with `values` changes (tokens carry both: a change retires them). */
export function credentialChanges(user: PolicyRecord, values: PolicyRecord): CredentialChanges {
  return {
    password: Object.hasOwn(values, "password"),
    email: Object.hasOwn(values, "email") && values.email !== user.email,
  };
}

function isSelf(caller: Caller, user: PolicyRecord): boolean {
  return caller !== null && user.id === caller.id;
}

/**
 * Credential writers (docs/api.md#permissions): only the user or a setup-role caller may write a user's
 * `password` or `email`.
 */
export function checkCredentialWriter(auth: PolicyAuth, caller: Caller, user: PolicyRecord, values: PolicyRecord): Verdict {
  const writes = Object.hasOwn(values, "password") || Object.hasOwn(values, "email");
  if (!writes || isSelf(caller, user) || holdsSetupRole(auth, caller?.role)) return ALLOWED;
  return forbidden("Only the user or an administrator may change this");
}

/**
 * `true` when the caller changes its own password or email: that needs the current password
 * ({@link checkCurrentPassword}), and the answer carries fresh tokens.
 */
export function changesOwnCredentials(caller: Caller, user: PolicyRecord, values: PolicyRecord): boolean {
  const changes = credentialChanges(user, values);
  return isSelf(caller, user) && (changes.password || changes.email);
}

/**
 * Own-credential changes (docs/api.md#permissions): when {@link changesOwnCredentials}, the body must carry
 * the current password in `currentPassword`; `confirmed` says whether it did and it was right.
 * A stolen token alone can never take an account over.
 */
export function checkCurrentPassword(confirmed: boolean): Verdict {
  return confirmed ? ALLOWED : forbidden("Changing your password or email needs your current password in 'currentPassword'");
}

/**
 * Whether a write of a user hands whoever holds the caller's session a sign-in of their own, and so
 * needs a recent sign-in (docs/security.md#sensitive-actions): creating a user with a password or
 * with the setup role; setting another user's password or email; giving another user the setup role.
 * `user` is `null` for a new one.
 */
export function grantsSignIn(auth: PolicyAuth, caller: Caller, user: PolicyRecord | null, values: PolicyRecord): boolean {
  const toSetupRole = Object.hasOwn(values, "role") && holdsSetupRole(auth, values.role);
  if (user === null) return Object.hasOwn(values, "password") || toSetupRole;
  if (isSelf(caller, user)) return false;
  const changes = credentialChanges(user, values);
  return changes.password || changes.email || (toSetupRole && !holdsSetupRole(auth, user.role));
}
