import { ERROR_CODES } from "../http/errors.js";
import { holdsSetupRole } from "./setup-role.js";
import type { Caller, PolicyAuth, PolicyRecord } from "./subjects.js";
import { ALLOWED, type Verdict } from "./verdict.js";

/**
 * An invitation (docs/mail.md): a setup-role caller creates a user without a `password`, where
 * e-mail can be sent and `reset-password` exists; the user then chooses one through the link
 * they are sent.
 */
export function isInvitation(auth: PolicyAuth, caller: Caller, body: PolicyRecord, options: { readonly mailAvailable: boolean }): boolean {
  return options.mailAvailable && holdsSetupRole(auth, caller?.role) && !Object.hasOwn(body, "password");
}

/**
 * Whether a new user's email counts as confirmed when created by `caller` (docs/mail.md): a
 * setup-role caller vouches for the address of a user it gives a password; everyone else, the
 * invited included, confirms it with a link.
 */
export function vouchesForEmail(auth: PolicyAuth, caller: Caller, options: { readonly invitation: boolean }): boolean {
  return !options.invitation && holdsSetupRole(auth, caller?.role);
}

/**
 * Sign-in under `auth.verifyEmail` (docs/mail.md): a user who has never confirmed an address is
 * refused with 403 `EMAIL_NOT_VERIFIED`; one who confirmed an earlier address is not. Asked only
 * after the password was found right.
 */
export function checkEmailConfirmed(auth: { readonly verifyEmail: boolean }, user: { readonly everVerified: boolean }): Verdict {
  if (!auth.verifyEmail || user.everVerified) return ALLOWED;
  return {
    allowed: false,
    status: 403,
    code: "EMAIL_NOT_VERIFIED",
    message: ERROR_CODES.EMAIL_NOT_VERIFIED.message,
  };
}
