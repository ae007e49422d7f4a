import type { Operation } from "../config/vocabulary.js";
import type { Caller, PolicyEntity, PolicyRecord } from "./subjects.js";
import { ALLOWED, forbidden, type Verdict, verbOf } from "./verdict.js";

/**
 * An operation {@link authorize} allowed: on every record (`scope: "all"`), or only on the
 * records the caller owns (`scope: "own"`, from `@Owner`).
 */
export interface Access {
  readonly operation: Operation;
  readonly caller: Caller;
  readonly scope: "all" | "own";
}

/** `true` when `record` belongs to `caller`: on the auth entity, when it is the caller. */
export function ownsRecord(entity: PolicyEntity, record: PolicyRecord, caller: Caller): boolean {
  if (!caller) return false;
  if (entity.isAuthEntity) return record.id === caller.id;
  return entity.ownerField !== null && record[entity.ownerField] === caller.id;
}

/**
 * Ownership (docs/api.md#permissions, `@Owner`): an access of scope `"own"` reaches only the caller's
 * records; any other is refused with 403 "You can only <verb> your own records".
 */
export function checkOwnership(entity: PolicyEntity, access: Access, record: PolicyRecord): Verdict {
  if (access.scope === "all" || ownsRecord(entity, record, access.caller)) return ALLOWED;
  return forbidden(`You can only ${verbOf(access.operation)} your own records`);
}
