import type { CheckedKey } from "../api-keys/api-key-store.js";
import type { AuthServices, RouteContext } from "../context.js";
import { type ApiRequest, isSafeMethod } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { API_KEY_REFUSAL, isApiKey } from "../policy/api-keys.js";
import type { Caller } from "../policy/subjects.js";
import type { LiveSessionRow, LiveSessionWithUser } from "../sessions/session-store.js";
import type { OrganizationAccessRow } from "../store/credential-user-read.js";
import type { SignedInUser } from "../store/rows.js";

/** How a request carried its token: the `Authorization` header, or the access cookie (docs/api.md#cookie-sessions). */
export type Credential = "bearer" | "cookie";

/** An authenticated caller with their current user record and the session their token belongs to. */
export interface Authenticated {
  readonly caller: NonNullable<Caller>;
  readonly user: SignedInUser;
  readonly session: LiveSessionRow;
  readonly credential: Credential;
  /** With {@link AuthenticateOptions.organizationId}: that organization (`null`: none) and the caller's role in it, from the same read. */
  readonly organization?: OrganizationAccessRow | null;
}

/** A caller who sent an API key (docs/api-keys.md): its user, as they are now, and the key; no session. */
export interface KeyAuthenticated {
  readonly caller: NonNullable<Caller>;
  readonly user: SignedInUser;
  readonly session: null;
  readonly credential: "api-key";
  readonly apiKey: CheckedKey;
}

/** Options of {@link authenticate}. */
export interface AuthenticateOptions {
  /**
   * `false` for the endpoints that need no caller: those that start a session (login, setup,
   * refresh, reset-password) and the signed-out account flows (register, forgot-password, the
   * e-mail confirmation ones, setup's status). The browser sends the access cookie by itself, and
   * the cookie of a session that has ended must not stop a new sign-in or a registration; a bad
   * bearer token, which a client sends on purpose, is still a 401 there.
   * @default true
   */
  readonly cookie?: boolean;
  /**
   * `true` where an API key is accepted as the bearer token: `me` and the entity endpoints. Elsewhere
   * a key is 403 `FORBIDDEN` before it is even looked up: credentials, sessions, factors and keys
   * are never managed with one.
   * @default false
   */
  readonly apiKeys?: boolean;
  /**
   * An organization the request is about (a tenant entity's path): a session's check reads it and the
   * caller's membership in the same statement (docs/organizations.md#permissions). An API key's does not.
   */
  readonly organizationId?: string;
}

/** Options of {@link authenticate} where API keys are accepted. */
type WithApiKeys = AuthenticateOptions & { readonly apiKeys: true };

/** The 401 for a token that fails verification, or whose session ended or whose user is gone or changed since. */
export function invalidTokenError(): ApiError {
  return new ApiError("UNAUTHENTICATED", {
    message: "The token is invalid or has expired",
    headers: { "www-authenticate": 'Bearer error="invalid_token"' },
  });
}

/** The bearer token of a request; another scheme counts as no token. */
export function bearerToken(request: ApiRequest): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^\s*([A-Za-z]+)(?:\s+(.*?))?\s*$/s.exec(header);
  if (match?.[1]?.toLowerCase() !== "bearer") return null;
  return match[2] ?? "";
}

/** The token of a request and how it came: the bearer header first, else the access cookie; `null` for neither. */
function presentedToken(services: AuthServices, request: ApiRequest, cookie: boolean): { token: string; credential: Credential } | null {
  const bearer = bearerToken(request);
  if (bearer !== null) return { token: bearer, credential: "bearer" };
  if (!cookie) return null;
  const token = services.cookies.accessToken(request);
  return token === null ? null : { token, credential: "cookie" };
}

/**
 * The user and session a token stands for, or `undefined` when it fails verification, its session
 * was revoked or expired, or its user is gone or their role or password changed since. One
 * database read: the session and its user together.
 */
export async function verifiedSession(
  services: AuthServices,
  token: string,
  organizationId?: string,
): Promise<LiveSessionWithUser | undefined> {
  const claims = token === "" ? null : await services.tokens.verify(token);
  const found = claims ? await services.sessions.findLive(services.auth.entity, claims.sid, organizationId) : undefined;
  const user = found?.user;
  if (!claims || !found || !user || user.id !== claims.sub || user.tokenVersion !== claims.ver || user.role !== claims.role)
    return undefined;
  return found;
}

/**
 * The user of an API key, or a 401 for a key that is unknown, expired or revoked, or whose user is
 * gone; such a failure counts toward the client address's failed logins (docs/api.md#login), a valid
 * key never waits for the throttle.
 */
async function keyCaller(context: RouteContext, services: AuthServices, request: ApiRequest, token: string): Promise<KeyAuthenticated> {
  const found = await services.apiKeys.check(services.auth.entity, token);
  if (!found) {
    await services.throttle.countAddressFailure(context.clientAddress(request));
    throw invalidTokenError();
  }
  const { user, key } = found;
  return { caller: { id: user.id, role: user.role }, user, session: null, credential: "api-key", apiKey: key };
}

/**
 * The caller of a request: `null` without a bearer token or access cookie. A token that fails
 * verification, whose session ended or whose user changed since ({@link verifiedSession}) is a
 * 401, never anonymous. A cookie authenticates a method that changes something only from the
 * app's own origin (403 `FORBIDDEN_ORIGIN`, docs/api.md#cookie-sessions). An API key is 403 unless
 * `options.apiKeys`.
 */
export async function authenticate(
  context: RouteContext,
  request: ApiRequest,
  options: WithApiKeys,
): Promise<Authenticated | KeyAuthenticated | null>;
export async function authenticate(
  context: RouteContext,
  request: ApiRequest,
  options?: AuthenticateOptions,
): Promise<Authenticated | null>;
export async function authenticate(
  context: RouteContext,
  request: ApiRequest,
  options: AuthenticateOptions = {},
): Promise<Authenticated | KeyAuthenticated | null> {
  const services: AuthServices | null = context.services;
  if (!services) return null;
  const presented = presentedToken(services, request, options.cookie ?? true);
  if (presented === null) return null;
  if (presented.credential === "bearer" && isApiKey(presented.token)) {
    if (!options.apiKeys) throw new ApiError("FORBIDDEN", { message: API_KEY_REFUSAL });
    return keyCaller(context, services, request, presented.token);
  }
  if (presented.credential === "cookie" && !isSafeMethod(request.method)) services.cookies.checkOrigin(request);
  const found = await verifiedSession(services, presented.token, options.organizationId);
  if (!found) throw invalidTokenError();
  const { user, session, organization } = found;
  return {
    caller: { id: user.id, role: user.role },
    user,
    session,
    credential: presented.credential,
    ...(organization === undefined ? {} : { organization }),
  };
}

/** Like {@link authenticate}, but a request without a token is a 401 too. */
export async function requireCaller(
  context: RouteContext,
  request: ApiRequest,
  options: WithApiKeys,
): Promise<Authenticated | KeyAuthenticated>;
export async function requireCaller(context: RouteContext, request: ApiRequest): Promise<Authenticated>;
export async function requireCaller(
  context: RouteContext,
  request: ApiRequest,
  options: AuthenticateOptions = {},
): Promise<Authenticated | KeyAuthenticated> {
  const authenticated = await authenticate(context, request, options);
  if (!authenticated) throw new ApiError("UNAUTHENTICATED", { headers: { "www-authenticate": "Bearer" } });
  return authenticated;
}
