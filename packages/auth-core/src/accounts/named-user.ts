import type { AuthServices, RouteContext } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { Authenticated } from "./authenticate.js";

/** The user a read is about: the caller (`self`), or the user `?userId=` names. */
export interface NamedUser {
  readonly id: string;
  readonly self: boolean;
}

/**
 * Whose data a read of an operation with `setupRoleWith: "userId"` is about: the caller without
 * `userId` (or with their own), else that user, looked up (404 `NOT_FOUND` for an unknown id). Only
 * the setup role gets this far with another user's id: the registry refused anyone else with 403.
 */
export async function namedUser(
  context: RouteContext,
  services: AuthServices,
  { caller }: Pick<Authenticated, "caller">,
  userId: string | undefined,
): Promise<NamedUser> {
  if (userId === undefined || userId === caller.id) return { id: caller.id, self: true };
  const target = await context.store.findUser(services.auth.entity, userId);
  if (!target) throw new ApiError("NOT_FOUND");
  return { id: target.id, self: false };
}
