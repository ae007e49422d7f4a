import { authenticate, type Credential } from "../accounts/authenticate.js";
import type { EntityModel } from "../config/index.js";
import type { Operation } from "../config/vocabulary.js";
import type { RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError, enforce } from "../http/errors.js";
import { checkKeyScope } from "../policy/api-keys.js";
import { authorize } from "../policy/authorize.js";
import type { Access } from "../policy/ownership.js";
import type { LiveSessionRow } from "../sessions/session-store.js";

/** An allowed operation, and the session of the caller's token (`null` for an anonymous caller or an API key). */
export interface Permitted extends Access {
  readonly session: LiveSessionRow | null;
  /** How the token came (`null` for an anonymous caller): fresh tokens go back the same way; a key gets none. */
  readonly credential: Credential | "api-key" | null;
}

/**
 * Authenticates the request and asks the policy whether the caller may perform `operation` on
 * `entity`: before any body is read (docs/api.md#errors-in-the-order-they-are-checked). An API key is its user with their current
 * role, narrowed by its scopes (docs/api-keys.md).
 *
 * @throws {ApiError} 401 `UNAUTHENTICATED` (with `WWW-Authenticate: Bearer`) or 403 `FORBIDDEN`.
 */
export async function permit(context: RouteContext, request: ApiRequest, entity: EntityModel, operation: Operation): Promise<Permitted> {
  const authenticated = await authenticate(context, request, { apiKeys: true });
  const caller = authenticated?.caller ?? null;
  const decision = authorize(entity, operation, caller, { open: context.services === null });
  if (!decision.allowed) {
    throw decision.status === 401
      ? new ApiError("UNAUTHENTICATED", { headers: { "www-authenticate": "Bearer" } })
      : new ApiError("FORBIDDEN");
  }
  if (authenticated?.credential === "api-key") enforce(checkKeyScope(authenticated.apiKey.scopes, entity.segment, operation));
  return {
    operation,
    caller,
    scope: decision.scope,
    session: authenticated?.session ?? null,
    credential: authenticated?.credential ?? null,
  };
}
