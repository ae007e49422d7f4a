import { authenticate, type Credential } from "../accounts/authenticate.js";
import type { EntityModel } from "../config/index.js";
import type { Operation } from "../config/vocabulary.js";
import type { RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError, enforce } from "../http/errors.js";
import { checkKeyScope } from "../policy/api-keys.js";
import { authorize } from "../policy/authorize.js";
import type { Membership } from "../policy/organizations.js";
import type { Access } from "../policy/ownership.js";
import type { Caller } from "../policy/subjects.js";
import type { LiveSessionRow } from "../sessions/session-store.js";
import type { OrganizationAccessRow } from "../store/credential-user-read.js";
import type { RecordScope } from "../store/record-store.js";

/** An allowed operation, and the session of the caller's token (`null` for an anonymous caller or an API key). */
export interface Permitted extends Access, RecordScope {
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
export async function permit(
  context: RouteContext,
  request: ApiRequest,
  entity: EntityModel,
  operation: Operation,
  within: RecordScope = {},
): Promise<Permitted> {
  const organizationId = entity.tenant ? (within.organizationId ?? "") : undefined;
  const authenticated = await authenticate(context, request, {
    apiKeys: true,
    ...(organizationId === undefined ? {} : { organizationId }),
  });
  const caller = authenticated?.caller ?? null;
  const open = context.services === null;
  const read = authenticated && "organization" in authenticated ? authenticated.organization : undefined;
  const membership = entity.tenant ? await membershipOf(context, entity, operation, caller, { within, read }) : undefined;
  const decision = authorize(entity, operation, caller, { open, ...(membership === undefined ? {} : { membership }) });
  if (!decision.allowed) throw refusal(decision.status);
  if (authenticated?.credential === "api-key") enforce(checkKeyScope(authenticated.apiKey.scopes, entity.segment, operation));
  return {
    operation,
    caller,
    ...within,
    scope: decision.scope,
    session: authenticated?.session ?? null,
    credential: authenticated?.credential ?? null,
  };
}

/** The error of a refused operation: 401 with `WWW-Authenticate`, 403, or 404 for an organization the caller is not in. */
function refusal(status: 401 | 403 | 404): ApiError {
  if (status === 401) return new ApiError("UNAUTHENTICATED", { headers: { "www-authenticate": "Bearer" } });
  return new ApiError(status === 404 ? "NOT_FOUND" : "FORBIDDEN");
}

/**
 * The caller's membership of the organization a tenant entity's path names, read from the database
 * on every request (a removed member is refused at once, on every instance), in the session's
 * own read where a session calls: `null` when not a member. An anonymous caller the rules refuse gets 401 before the organization is looked up; an
 * organization that does not exist is 404 (docs/organizations.md#permissions).
 */
async function membershipOf(
  context: RouteContext,
  entity: EntityModel,
  operation: Operation,
  caller: Caller,
  { within, read }: { readonly within: RecordScope; readonly read: OrganizationAccessRow | null | undefined },
): Promise<Membership | null> {
  if (!caller) {
    const anonymous = authorize(entity, operation, null);
    if (!anonymous.allowed) throw refusal(anonymous.status);
  }
  const organizations = context.services?.organizations;
  // A session's check read it already; an API key or an anonymous caller reads it now, by primary keys.
  const access =
    read !== undefined
      ? read
      : organizations && within.organizationId !== undefined
        ? await organizations.store.access(within.organizationId, caller?.id ?? null)
        : null;
  if (!access) throw new ApiError("NOT_FOUND");
  return access.role === null ? null : { role: access.role };
}
