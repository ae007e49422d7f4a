import type { EntityModel, Operation } from "../config/index.js";

/** Who is calling: an authenticated user, or `null` for anonymous. */
export type Caller = { readonly id: string; readonly role: string | null } | null;

/**
 * The outcome of a permission check. `scope: "own"` allows the operation only on records the
 * caller owns (lists are filtered to them; creates set the owner to the caller).
 */
export type Decision = { readonly allowed: true; readonly scope: "all" | "own" } | { readonly allowed: false; readonly status: 401 | 403 };

const ALL: Decision = { allowed: true, scope: "all" };
const OWN: Decision = { allowed: true, scope: "own" };

/**
 * May `caller` perform `operation` on `entity`? Pure: CONTRACT 5, first matching rule decides.
 * Under `auth.type: none` pass `{ open: true }`: everything is allowed.
 */
export function authorize(entity: EntityModel, operation: Operation, caller: Caller, options: { open?: boolean } = {}): Decision {
  if (options.open) return ALL;
  const list = entity.permissions[operation];
  if (list === undefined) return caller ? ALL : { allowed: false, status: 401 };
  if (list.includes("*")) return ALL;
  if (caller && list.includes("@Authenticated")) return ALL;
  if (caller?.role && list.includes(caller.role)) return ALL;
  if (caller && list.includes("@Owner")) return OWN;
  return { allowed: false, status: caller ? 403 : 401 };
}

/** `true` when `record` belongs to `caller`: on the auth entity, when it is the caller. */
export function ownsRecord(entity: EntityModel, record: Record<string, unknown>, caller: Caller): boolean {
  if (!caller) return false;
  if (entity.isAuthEntity) return record.id === caller.id;
  return entity.ownerField !== null && record[entity.ownerField] === caller.id;
}
