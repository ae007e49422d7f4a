import { authenticate, bearerToken, requireCaller } from "../accounts/authenticate.js";
import { requestEvents } from "../accounts/security-events.js";
import type { AuthServices, RouteContext } from "../context.js";
import { defineOperation } from "../endpoints/operation.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { noContent } from "../http/responses.js";
import type { SessionWithin } from "../sessions/sessions.js";

/** Writes the `logout` event of a session in its revocation's transaction; `email` when the caller is known. */
function logoutEvent(context: RouteContext, services: AuthServices, request: ApiRequest, email: string | null): SessionWithin {
  const events = requestEvents(context, services, request);
  return (trx, session) =>
    events.write(trx, { type: "logout", userId: session.userId, actorId: session.userId, email, sessionId: session.id });
}

/**
 * `POST /api/<auth>/logout`: revokes the caller's session, so its access and refresh tokens stop
 * working; its `logout` event commits with it. Any body is ignored. With the session cookies
 * (docs/api.md#cookie-sessions) it comes from the app's own origin only, revokes the session of the access cookie,
 * or else of the refresh cookie, and clears both cookies even when the session had already ended.
 */
export const logout = defineOperation("logout", { ownCredentials: true }, async ({ context, services, request }) => {
  const now = services.sessions.now();
  if (bearerToken(request) !== null) {
    const { session, user } = await requireCaller(context, request);
    await services.sessions.store.revokeWith(session.id, now, logoutEvent(context, services, request, user.email));
    return noContent();
  }
  const { cookies } = services;
  const refreshToken = cookies.refreshToken(request);
  if (cookies.accessToken(request) === null && refreshToken === null)
    throw new ApiError("UNAUTHENTICATED", { headers: { "www-authenticate": "Bearer" } });
  cookies.checkOrigin(request);
  const authenticated = await authenticate(context, request).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  });
  if (authenticated) {
    const recorded = logoutEvent(context, services, request, authenticated.user.email);
    await services.sessions.store.revokeWith(authenticated.session.id, now, recorded);
  } else if (refreshToken !== null) {
    await services.sessions.revokeByRefreshToken(services.auth.entity, refreshToken, logoutEvent(context, services, request, null));
  }
  return { ...noContent(), cookies: cookies.clearingCookies() };
});
