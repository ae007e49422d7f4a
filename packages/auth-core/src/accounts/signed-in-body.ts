import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { jsonWithToken, type Reply } from "../http/responses.js";
import { serializeRecord } from "../records/serialize.js";
import type { IssuedRefresh } from "../sessions/sessions.js";
import type { StoredUser } from "../store/rows.js";
import type { Transport } from "./auth-body-schemas.js";

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

/**
 * The answer of a sign-in or of fresh tokens: the body as it is, or, with the cookie transport
 * (CONTRACT §14), without `token`, `tokenType` and `refreshToken`, which go into the session
 * cookies instead (the refresh cookie only where the domain has `refresh`).
 */
export function signedInReply(services: AuthServices, status: number, body: Record<string, unknown>, transport: Transport = "body"): Reply {
  if (transport === "body") return jsonWithToken(status, body);
  const { token, tokenType: _tokenType, refreshToken, ...rest } = body;
  const refresh = services.endpoints.refresh && typeof refreshToken === "string" ? refreshToken : null;
  const cookies = services.cookies.sessionCookies({
    token: String(token),
    expiresIn: Number(body.expiresIn),
    refreshToken: refresh,
    refreshExpiresIn: refresh === null ? null : Number(body.refreshExpiresIn),
  });
  return { ...jsonWithToken(status, refresh === null ? withoutKey(rest, "refreshExpiresIn") : rest), cookies };
}

function withoutKey(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = body;
  return rest;
}

/**
 * Refuses a cookie sign-in from another site (403 `FORBIDDEN_ORIGIN`): checked once the body has
 * said which transport it wants.
 */
export function checkTransport(services: AuthServices, request: ApiRequest, transport: Transport | undefined): Transport {
  if (transport === "cookie") services.cookies.checkOrigin(request);
  return transport ?? "body";
}
