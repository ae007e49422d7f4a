import { holdsSetupRole } from "./setup-role.js";
import type { Caller, PolicyAuth, PolicyEntity, PolicyRecord } from "./subjects.js";
import { ALLOWED, forbidden, type Verdict } from "./verdict.js";

/** The fields only a setup-role caller may set on `entity`: `role` on the auth entity, and the owner field. */
export function guardedFields(entity: PolicyEntity): string[] {
  return [entity.isAuthEntity ? "role" : null, entity.ownerField].filter((name): name is string => name !== null);
}

/**
 * Field guards (docs/api.md#permissions): a caller without the setup role who sends `role` or an owner field,
 * on create or update, is refused. Under `auth.type: none` (`auth` is `null`) nothing is guarded.
 */
export function checkFieldGuards(auth: PolicyAuth | null, entity: PolicyEntity, caller: Caller, values: PolicyRecord): Verdict {
  if (auth === null || holdsSetupRole(auth, caller?.role)) return ALLOWED;
  const sent = guardedFields(entity).find((name) => Object.hasOwn(values, name));
  return sent ? forbidden(`Only the ${auth.setupRole} role may set '${sent}'`) : ALLOWED;
}
