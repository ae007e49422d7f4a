import { namedUser } from "../accounts/named-user.js";
import { aboutUser, byUser, requestEvents } from "../accounts/security-events.js";
import { defineOperation } from "../endpoints/operation.js";
import { ApiError, enforce } from "../http/errors.js";
import { json, noContent } from "../http/responses.js";
import { checkSessionRevoker } from "../policy/sessions.js";
import { sessionView } from "../sessions/session-view.js";

/**
 * `GET /api/<auth>/sessions`: the caller's live sessions, newest first, the current one marked;
 * with `?userId=`, that user's (the setup role, as the entry's `setupRoleWith` lets through; 404 for
 * an unknown user), none of them current. Never a token or its hash.
 */
export const listSessions = defineOperation("listSessions", async ({ context, services, caller, query }) => {
  const subject = await namedUser(context, services, caller, query.userId);
  const sessions = await services.sessions.store.listActive(subject.id, services.sessions.now());
  return json(200, { items: sessions.map((each) => sessionView(each, caller.session.id)) });
});

/**
 * `DELETE /api/<auth>/sessions`: revokes every session of the caller but the current one; with
 * `?userId=`, every session of that user (setup role only: 403 for others, 404 for an unknown user).
 */
export const revokeSessions = defineOperation(
  "revokeSessions",
  async ({ context, services, request, caller: { caller, session, user }, query: { userId } }) => {
    const events = requestEvents(context, services, request);
    const store = services.sessions.store;
    const now = services.sessions.now();
    const by = { actorId: caller.id, sessionId: session.id };
    if (userId === undefined) {
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
  },
);

/** `DELETE /api/<auth>/sessions/<id>`: revokes one of the caller's live sessions; 404 for any other id. */
export const revokeSession = defineOperation(
  "revokeSession",
  async ({ context, services, request, caller: { caller, user }, path: { id } }) => {
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
  },
);
