import type { EntityModel } from "../config/index.js";
import type { RouteContext } from "../context.js";
import { ApiError } from "../http/errors.js";

/**
 * On the auth entity, a `role` sent must be a declared role (or the setup role, or `null`):
 * part of body validation (400 `INVALID_BODY`), before any guard.
 */
export function checkRoleValue(context: RouteContext, entity: EntityModel, values: Record<string, unknown>): void {
  const auth = context.services?.auth;
  if (!auth || !entity.isAuthEntity || !Object.hasOwn(values, "role")) return;
  const role = values.role as string | null;
  if (role === null || role === auth.setupRole || auth.roles.includes(role)) return;
  const allowed = auth.roles.length > 0 ? auth.roles : [auth.setupRole];
  throw new ApiError("INVALID_BODY", { issues: [{ path: ["role"], message: `must be one of ${allowed.join(", ")}, or null` }] });
}
