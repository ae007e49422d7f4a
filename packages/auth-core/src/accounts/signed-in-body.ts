import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { jsonWithToken, type Reply } from "../http/responses.js";
import { serializeRecord } from "../records/serialize.js";
import type { IssuedRefresh } from "../sessions/sessions.js";
import type { SignedInUser } from "../store/rows.js";
import type { Transport } from "./auth-body-schemas.js";
import { byUser, requestEvents, type SignInMethod } from "./security-events.js";
import type { SessionTokens, SignedIn } from "./signed-in-view.js";

/** The tokens of a session: an access token carrying its `sid`, and its refresh token. */
export async function sessionTokens(services: AuthServices, user: SignedInUser, issued: IssuedRefresh): Promise<SessionTokens> {
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
export async function tokensBody(services: AuthServices, user: SignedInUser, issued: IssuedRefresh): Promise<SignedIn> {
  return { ...(await sessionTokens(services, user, issued)), user: serializeRecord(services.auth.entity, user) };
}

/**
 * Starts a session for a user who just signed in (login, setup) and answers with its tokens and
 * the profile. Its `login.succeeded` event (with how they signed in, `password` unless told) is
 * written in the session's own transaction.
 */
export async function signedInBody(
  context: RouteContext,
  services: AuthServices,
  user: SignedInUser,
  request: ApiRequest,
  options: { readonly method?: SignInMethod } = {},
): Promise<SignedIn> {
  return tokensBody(services, user, await startSession(context, services, user, request, options));
}

/** Starts a session with its `login.succeeded` event, as {@link signedInBody} does, and returns its refresh token. */
export function startSession(
  context: RouteContext,
  services: AuthServices,
  user: Pick<SignedInUser, "id" | "email">,
  request: ApiRequest,
  options: { readonly method?: SignInMethod; readonly provider?: string } = {},
): Promise<IssuedRefresh> {
  const events = requestEvents(context, services, request);
  const client = { userAgent: request.headers.get("user-agent"), address: context.clientAddress(request) };
  return services.sessions.start(user.id, client, {
    within: (trx, session) =>
      events.write(trx, {
        type: "login.succeeded",
        ...byUser(user),
        sessionId: session.id,
        detail: { method: options.method ?? "password", ...(options.provider ? { provider: options.provider } : {}) },
      }),
  });
}

/** The `Set-Cookie` values of a session's tokens: the refresh cookie only where the domain has `refresh`. */
export function sessionCookiesOf(services: AuthServices, tokens: SessionTokens): string[] {
  return services.cookies.sessionCookies(services.endpoints.refresh ? tokens : { ...tokens, refreshToken: null, refreshExpiresIn: null });
}

/**
 * The answer of a sign-in or of fresh tokens: the body as it is, or, with the cookie transport
 * (docs/api.md#cookie-sessions), without `token`, `tokenType` and `refreshToken`, which go into the session
 * cookies instead (the refresh cookie only where the domain has `refresh`).
 */
export function signedInReply<Body extends SessionTokens>(
  services: AuthServices,
  status: number,
  body: Body,
  transport: Transport = "body",
): Reply {
  if (transport === "body") return jsonWithToken(status, body);
  const { token: _token, tokenType: _tokenType, refreshToken: _refreshToken, refreshExpiresIn, ...rest } = body;
  const cookies = sessionCookiesOf(services, body);
  return { ...jsonWithToken(status, services.endpoints.refresh ? { ...rest, refreshExpiresIn } : rest), cookies };
}

/**
 * Refuses a cookie sign-in from another site (403 `FORBIDDEN_ORIGIN`): checked once the body has
 * said which transport it wants.
 */
export function checkTransport(services: AuthServices, request: ApiRequest, transport: Transport | undefined): Transport {
  if (transport === "cookie") services.cookies.checkOrigin(request);
  return transport ?? "body";
}
