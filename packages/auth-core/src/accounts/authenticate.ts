import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import type { Caller } from "../policy/subjects.js";
import type { LiveSessionRow } from "../sessions/session-store.js";
import type { SignedInUser } from "../store/rows.js";

/** An authenticated caller with their current user record and the session their token belongs to. */
export interface Authenticated {
  readonly caller: NonNullable<Caller>;
  readonly user: SignedInUser;
  readonly session: LiveSessionRow;
}

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

/**
 * The caller of a request: `null` without a bearer token. A token that fails verification, whose
 * session was revoked or expired, or whose user is gone or whose role or password changed since,
 * is a 401, never anonymous. One database read: the session and its user together.
 */
export async function authenticate(context: RouteContext, request: ApiRequest): Promise<Authenticated | null> {
  const services: AuthServices | null = context.services;
  if (!services) return null;
  const token = bearerToken(request);
  if (token === null) return null;
  const claims = token === "" ? null : await services.tokens.verify(token);
  const found = claims ? await services.sessions.findLive(services.auth.entity, claims.sid) : undefined;
  const user = found?.user;
  if (!claims || !found || !user || user.id !== claims.sub || user.tokenVersion !== claims.ver || user.role !== claims.role)
    throw invalidTokenError();
  return { caller: { id: user.id, role: user.role }, user, session: found.session };
}

/** Like {@link authenticate}, but a request without a token is a 401 too. */
export async function requireUser(context: RouteContext, request: ApiRequest): Promise<Authenticated> {
  const authenticated = await authenticate(context, request);
  if (!authenticated) throw new ApiError("UNAUTHENTICATED", { headers: { "www-authenticate": "Bearer" } });
  return authenticated;
}
