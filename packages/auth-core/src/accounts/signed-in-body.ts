import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { serializeRecord } from "../records/serialize.js";
import type { IssuedRefresh } from "../sessions/sessions.js";
import type { StoredUser } from "../store/rows.js";

/** The tokens of a session: an access token carrying its `sid`, and its refresh token. */
export async function sessionTokens(services: AuthServices, user: StoredUser, issued: IssuedRefresh): Promise<Record<string, unknown>> {
  const access = await services.tokens.issue({
    id: user.id,
    email: user.email,
    role: user.role,
    tokenVersion: user.tokenVersion,
    sessionId: issued.sessionId,
  });
  return { ...access, refreshToken: issued.refreshToken, refreshExpiresIn: issued.refreshExpiresIn };
}

/** The body of a response with a session's tokens and the user's profile. */
export async function tokensBody(services: AuthServices, user: StoredUser, issued: IssuedRefresh): Promise<Record<string, unknown>> {
  return { ...(await sessionTokens(services, user, issued)), user: serializeRecord(services.auth.entity, user) };
}

/** Starts a session for a user who just signed in (login, setup) and answers with its tokens and the profile. */
export async function signedInBody(
  context: RouteContext,
  services: AuthServices,
  user: StoredUser,
  request: ApiRequest,
): Promise<Record<string, unknown>> {
  const issued = await services.sessions.start(user.id, {
    userAgent: request.headers.get("user-agent"),
    address: context.clientAddress(request),
  });
  return tokensBody(services, user, issued);
}
