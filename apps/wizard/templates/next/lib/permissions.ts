import type { EntityView } from "./domain-view";

/** The caller as the permission rules see it; `null` is anonymous. */
export type Caller = { readonly id: string; readonly role: string | null } | null;

type Operation = keyof EntityView["permissions"];

/**
 * Whether `caller` may perform `operation` on `entity` (on `record` when given), by CONTRACT 5.
 * The server decides; this only hides actions that would be refused. Without a record,
 * `@Owner` counts as allowed, since some records may be the caller's.
 */
export function mayPerform(entity: EntityView, operation: Operation, caller: Caller, record?: Record<string, unknown>): boolean {
  const allowed = entity.permissions[operation];
  if (allowed === undefined) return caller !== null;
  if (allowed.includes("*")) return true;
  if (caller === null) return false;
  if (allowed.includes("@Authenticated")) return true;
  if (caller.role !== null && allowed.includes(caller.role)) return true;
  if (!allowed.includes("@Owner")) return false;
  return record === undefined || (entity.ownerField !== null && record[entity.ownerField] === caller.id);
}
