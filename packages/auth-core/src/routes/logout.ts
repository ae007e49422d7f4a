import { authenticate, bearerToken, requireUser } from "../accounts/authenticate.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { noContent, type Reply } from "../http/responses.js";

/**
 * `POST /api/<auth>/logout`: revokes the caller's session, so its access and refresh tokens stop
 * working. Any body is ignored. With the session cookies (CONTRACT §14) it comes from the app's own
 * origin only, revokes the session of the access cookie, or else of the refresh cookie, and clears
 * both cookies even when the session had already ended.
 */
export async function logout(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  if (bearerToken(request) !== null) {
    const { session } = await requireUser(context, request);
    await services.sessions.store.revoke(session.id, services.sessions.now());
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
  if (authenticated) await services.sessions.store.revoke(authenticated.session.id, services.sessions.now());
  else if (refreshToken !== null) await services.sessions.revokeByRefreshToken(services.auth.entity, refreshToken);
  return { ...noContent(), cookies: cookies.clearingCookies() };
}
