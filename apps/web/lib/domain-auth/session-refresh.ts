import { apiPaths } from "@domain-auth/core/policy";
import { useEffect } from "react";
import { installTokenRenewer, requestApi } from "./api";
import type { AuthView } from "./domain-view";
import { clearTokens, readRefreshToken, readToken, storeTokens, useSession } from "./session";
import type { TokenResponse } from "./sign-in";

/** What refreshing needs of the `auth` block. */
export type RefreshingAuth = Pick<AuthView, "segment" | "endpoints">;

/** The longest a token is renewed ahead of its expiry, in seconds; shorter tokens are renewed at three quarters of their life. */
const MAX_LEAD_SECONDS = 60;
/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

let inFlight: Promise<string | null> | null = null;

async function runRefresh(auth: RefreshingAuth): Promise<string | null> {
  const refreshToken = readRefreshToken();
  if (!refreshToken) return null;
  const result = await requestApi<TokenResponse>(apiPaths(auth).refresh, { method: "POST", body: { refreshToken } });
  if (result.ok) {
    storeTokens({ token: result.data.token, refreshToken: result.data.refreshToken });
    return result.data.token;
  }
  // Refused for good (spent, revoked, expired, user gone): the session is over. A network failure
  // or a 503 keeps the tokens for the next attempt.
  if (result.status === 401 || result.status === 400) clearTokens("refused");
  return null;
}

/**
 * Exchanges the tab's refresh token for a new token pair (`POST /api/<auth>/refresh`) and keeps it;
 * resolves to the new access token, or `null`. Calls made while one runs share it, so a tab never
 * spends one refresh token twice.
 */
export function refreshSession(auth: RefreshingAuth): Promise<string | null> {
  if (!auth.endpoints.refresh) return Promise.resolve(null);
  inFlight ??= runRefresh(auth).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** After a 401 for `rejected`: the tab's newer token when it already has one, else one refresh attempt. */
export function renewRejectedToken(auth: RefreshingAuth, rejected: string): Promise<string | null> {
  const current = readToken();
  if (current && current !== rejected) return Promise.resolve(current);
  return refreshSession(auth);
}

/** When to renew a token issued at `iat` that expires at `exp` (seconds), in milliseconds from `now`. */
export function refreshDelay(claims: { readonly iat: number; readonly exp: number }, now: number): number {
  const lead = Math.min(MAX_LEAD_SECONDS, Math.max(0, claims.exp - claims.iat) / 4);
  return Math.min(MAX_TIMER_MS, Math.max(0, (claims.exp - lead) * 1000 - now));
}

/**
 * Keeps the tab's session alive while it is open, where the domain has `refresh`: renews the access
 * token shortly before it expires, and lets {@link callApi} renew it once after a 401.
 */
export function useSessionRefresh(auth: RefreshingAuth): void {
  const session = useSession();
  const enabled = auth.endpoints.refresh;
  const { segment, endpoints } = auth;

  useEffect(() => {
    if (!enabled) return;
    installTokenRenewer((rejected) => renewRejectedToken({ segment, endpoints }, rejected));
    return () => installTokenRenewer(null);
  }, [enabled, segment, endpoints]);

  useEffect(() => {
    if (!enabled || !session) return;
    const timer = window.setTimeout(() => void refreshSession({ segment, endpoints }), refreshDelay(session.claims, Date.now()));
    return () => window.clearTimeout(timer);
  }, [enabled, segment, endpoints, session]);
}
