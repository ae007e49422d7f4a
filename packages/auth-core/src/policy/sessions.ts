import { holdsSetupRole } from "./setup-role.js";
import type { Caller, PolicyAuth } from "./subjects.js";
import { ALLOWED, forbidden, type Verdict } from "./verdict.js";

/**
 * Signing a user out everywhere (docs/api.md#sessions, `DELETE sessions?userId=`): only a setup-role caller
 * may revoke another user's sessions (or, this way, all of their own).
 */
export function checkSessionRevoker(auth: PolicyAuth, caller: Caller): Verdict {
  if (holdsSetupRole(auth, caller?.role)) return ALLOWED;
  return forbidden(`Only the ${auth.setupRole} role may sign a user out everywhere`);
}
