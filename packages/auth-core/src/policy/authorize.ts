import type { Operation } from "../config/vocabulary.js";
import { grantsMember, type Membership } from "./organizations.js";
import { checkOwnership } from "./ownership.js";
import type { Caller, PolicyEntity, PolicyRecord } from "./subjects.js";

/**
 * The outcome of a permission check. `scope: "own"` allows the operation only on records the
 * caller owns (lists are filtered to them; creates set the owner to the caller).
 */
export type Decision =
  | { readonly allowed: true; readonly scope: "all" | "own" }
  | { readonly allowed: false; readonly status: 401 | 403 | 404 };

/** Options of {@link authorize}. */
export interface AuthorizeOptions {
  /**
   * `true` under `auth.type: none`: every operation is open to everyone.
   * @default false
   */
  readonly open?: boolean;
  /**
   * On a tenant entity, the caller's membership of the path's organization (`null`: not a member).
   * @default null
   */
  readonly membership?: Membership | null;
}

const ALL: Decision = { allowed: true, scope: "all" };
const OWN: Decision = { allowed: true, scope: "own" };

/**
 * May `caller` perform `operation` on `entity`? Pure: docs/api.md#permissions, first matching rule decides;
 * on a tenant entity `@Member` and `@Owner` need `options.membership` (docs/organizations.md#permissions).
 * Under `auth.type: none` pass `{ open: true }`: everything is allowed.
 *
 * @example authorize(post, "update", { id: "u1", role: "Editor" }) // { allowed: true, scope: "own" }
 */
export function authorize(entity: PolicyEntity, operation: Operation, caller: Caller, options: AuthorizeOptions = {}): Decision {
  if (options.open) return ALL;
  const list = entity.permissions[operation];
  if (list === undefined) return caller ? ALL : { allowed: false, status: 401 };
  if (list.includes("*")) return ALL;
  if (caller && list.includes("@Authenticated")) return ALL;
  if (caller?.role && list.includes(caller.role)) return ALL;
  // On a tenant entity the rest needs a member of the path's organization: a removed member owns nothing there.
  const membership = entity.tenant ? (options.membership ?? null) : undefined;
  if (caller && membership && grantsMember(list, membership.role)) return ALL;
  if (caller && membership !== null && list.includes("@Owner")) return OWN;
  if (!caller) return { allowed: false, status: 401 };
  // An organization the caller is not in is not revealed: 404, as for one that does not exist.
  return { allowed: false, status: membership === null ? 404 : 403 };
}

/** Options of {@link mayPerform}. */
export interface MayPerformOptions extends AuthorizeOptions {
  /** The record the operation is on; without one, `@Owner` counts as allowed (some records may be the caller's). */
  readonly record?: PolicyRecord;
}

/**
 * Whether `caller` may perform `operation` on `entity` (on `options.record` when given): the
 * permission and, for `@Owner`, the ownership of the record. For showing only the actions the
 * server would allow; the server decides.
 *
 * @example mayPerform(post, "delete", caller, { record }) // false unless caller may delete it
 */
export function mayPerform(entity: PolicyEntity, operation: Operation, caller: Caller, options: MayPerformOptions = {}): boolean {
  const decision = authorize(entity, operation, caller, options);
  if (!decision.allowed) return false;
  return options.record === undefined || checkOwnership(entity, { operation, caller, scope: decision.scope }, options.record).allowed;
}
