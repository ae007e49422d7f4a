import { checkOtherUser, holdsSetupRole } from "./setup-role.js";
import type { Caller, PolicyAuth } from "./subjects.js";
import type { Verdict } from "./verdict.js";

/**
 * Reading security events (docs/events.md, `GET events`): the setup role reads anyone's; anyone else
 * only their own, so a `userId` other than their own is refused.
 */
export function checkEventReader(auth: PolicyAuth, caller: NonNullable<Caller>, userId: string | null): Verdict {
  return checkOtherUser(auth, caller, userId, "read another user's events");
}

/** Whose events a reader's page holds: the `userId` asked for (everyone's when none) for the setup role, else their own. */
export function eventSubject(auth: PolicyAuth, caller: NonNullable<Caller>, userId: string | null): string | null {
  return holdsSetupRole(auth, caller.role) ? userId : caller.id;
}
