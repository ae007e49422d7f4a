import { requireUser } from "../accounts/authenticate.js";
import { aboutUser, byUser, requestEvents } from "../accounts/security-events.js";
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
  const { caller, session, user } = await requireUser(context, request);
  const userId = new URL(request.url).searchParams.get("userId");
  const events = requestEvents(context, services, request);
  const store = services.sessions.store;
  const now = services.sessions.now();
  const by = { actorId: caller.id, sessionId: session.id };
  if (userId === null) {
    await store.inTransaction(async (trx) => {
      const count = await store.revokeAllOf(caller.id, now, { trx, except: session.id });
      if (count > 0) await events.write(trx, { type: "session.revoked", ...aboutUser(user), ...by, detail: { scope: "others", count } });
    });
    return noContent();
  }
  enforce(checkSessionRevoker(services.auth, caller));
  const target = await context.store.findUser(services.auth.entity, userId);
  if (!target) throw new ApiError("NOT_FOUND");
  await store.inTransaction(async (trx) => {
    const count = await store.revokeAllOf(userId, now, { trx });
    if (count > 0) await events.write(trx, { type: "session.revoked", ...aboutUser(target), ...by, detail: { scope: "all", count } });
  });
  return noContent();
}

/** `DELETE /api/<auth>/sessions/<id>`: revokes one of the caller's live sessions; 404 for any other id. */
export async function revokeSession(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  { id }: { readonly id: string },
): Promise<Reply> {
  const { caller, user } = await requireUser(context, request);
  const events = requestEvents(context, services, request);
  const revoked = await services.sessions.store.revokeWith(
    id,
    services.sessions.now(),
    (trx, revokedSession) =>
      events.write(trx, { type: "session.revoked", ...byUser(user), sessionId: revokedSession.id, detail: { scope: "one" } }),
    { userId: caller.id },
  );
  if (!revoked) throw new ApiError("NOT_FOUND");
  return noContent();
}
