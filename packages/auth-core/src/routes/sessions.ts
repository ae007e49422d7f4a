import { requireUser } from "../accounts/authenticate.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { json, noContent, type Reply } from "../http/responses.js";
import { checkSessionRevoker } from "../policy/sessions.js";
import type { SessionRow } from "../sessions/session-store.js";
import { enforce } from "./access.js";

function sessionView(session: SessionRow, current: string): Record<string, unknown> {
  return {
    id: session.id,
    createdAt: new Date(session.createdAt).toISOString(),
    refreshedAt: new Date(session.refreshedAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
    userAgent: session.userAgent,
    current: session.id === current,
  };
}

/** `GET /api/<auth>/sessions`: the caller's live sessions, newest first, the current one marked. */
export async function listSessions(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  const { caller, session } = await requireUser(context, request);
  const sessions = await services.sessions.store.listActive(caller.id, services.sessions.now());
  return json(200, { items: sessions.map((each) => sessionView(each, session.id)) });
}

/**
 * `DELETE /api/<auth>/sessions`: revokes every session of the caller but the current one; with
 * `?userId=`, every session of that user (setup role only: 403 for others, 404 for an unknown user).
 */
export async function revokeSessions(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  const { caller, session } = await requireUser(context, request);
  const userId = new URL(request.url).searchParams.get("userId");
  const now = services.sessions.now();
  if (userId === null) {
    await services.sessions.store.revokeAllOf(caller.id, now, { except: session.id });
    return noContent();
  }
  enforce(checkSessionRevoker(services.auth, caller));
  if (!(await context.store.exists(services.auth.entity, userId))) throw new ApiError("NOT_FOUND");
  await services.sessions.store.revokeAllOf(userId, now);
  return noContent();
}

/** `DELETE /api/<auth>/sessions/<id>`: revokes one of the caller's live sessions; 404 for any other id. */
export async function revokeSession(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  { id }: { readonly id: string },
): Promise<Reply> {
  const { caller } = await requireUser(context, request);
  const revoked = await services.sessions.store.revoke(id, services.sessions.now(), { userId: caller.id });
  if (!revoked) throw new ApiError("NOT_FOUND");
  return noContent();
}
