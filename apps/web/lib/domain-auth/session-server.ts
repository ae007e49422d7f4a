import { currentUser } from "@domain-auth/core/next";
import { cookies } from "next/headers";
import type { AuthView } from "./domain-view";
import { shownProfile, type UserProfile } from "./profile";
import { renewalTime, type SessionState } from "./session-client";

/** The session cookies of docs/api.md#cookie-sessions, `__Host-` prefixed where the app is served over https. */
export const SESSION_COOKIE = /^(?:__Host-)?domain-auth\.(?:token|refresh-token)$/;
const ACCESS_COOKIE = /^(?:__Host-)?domain-auth\.token$/;

/** When an access token was issued and expires (ms), from its payload: the server verified it already. */
function tokenTimes(token: string): { issuedAt: number; expiresAt: number } | null {
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    const { iat, exp } = (claims ?? {}) as { iat?: unknown; exp?: unknown };
    if (typeof exp !== "number") return null;
    return { issuedAt: (typeof iat === "number" ? iat : exp) * 1000, expiresAt: exp * 1000 };
  } catch {
    return null;
  }
}

/**
 * The session of the request being rendered, for the pages to start from (server only): the user
 * `currentUser()` finds (shown as the domain allows, see `shownProfile`) and when the tab should
 * renew the access token; signed out otherwise, `expired` when the request still carried session
 * cookies the server no longer accepts (revoked, or expired past renewal). The page's HTML shows it
 * at once; the token itself never reaches the page.
 */
export async function readSession(auth: Pick<AuthView, "endpoints">): Promise<SessionState> {
  const [user, jar] = await Promise.all([currentUser(), cookies()]);
  const sessionCookies = jar.getAll().filter((cookie) => SESSION_COOKIE.test(cookie.name));
  if (!user) return { status: "signed-out", expired: sessionCookies.length > 0 };
  const access = sessionCookies.find((cookie) => ACCESS_COOKIE.test(cookie.name));
  const times = access ? tokenTimes(access.value) : null;
  return {
    status: "signed-in",
    user: shownProfile(auth, user as unknown as UserProfile),
    renewAt: times ? renewalTime(times.issuedAt, times.expiresAt) : null,
  };
}
