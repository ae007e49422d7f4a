import { useMemo, useSyncExternalStore } from "react";

/** The sessionStorage key of the bearer (access) token. */
export const TOKEN_KEY = "domain-auth.token";
/** The sessionStorage key of the session's refresh token; with the access token, all the browser stores. */
export const REFRESH_TOKEN_KEY = "domain-auth.refresh-token";
const CHANGE_EVENT = "domain-auth:session";

/** Whether the tab's last session ended because the server refused it (kept in memory only). */
let refusedByServer = false;

/** The claims of a domain-auth token that the pages use. */
export interface TokenClaims {
  readonly sub: string;
  readonly email: string;
  readonly role: string | null;
  readonly iat: number;
  readonly exp: number;
  /** The session the token belongs to (CONTRACT 10). */
  readonly sid: string | null;
}

/** Reads a JWT's payload without verifying it: the server verifies every request. */
export function decodeClaims(token: string): TokenClaims | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof claims !== "object" || claims === null) return null;
    const { sub, email, role, iat, exp, sid } = claims as Record<string, unknown>;
    if (typeof sub !== "string" || typeof email !== "string" || typeof exp !== "number") return null;
    return {
      sub,
      email,
      role: typeof role === "string" ? role : null,
      iat: typeof iat === "number" ? iat : exp,
      exp,
      sid: typeof sid === "string" ? sid : null,
    };
  } catch {
    return null;
  }
}

/** The tab's access token as stored, expired or not (calls send it; a 401 then refreshes it). */
export function readToken(): string | null {
  return window.sessionStorage.getItem(TOKEN_KEY);
}

/** The tab's refresh token, when the session has one the pages may use. */
export function readRefreshToken(): string | null {
  return window.sessionStorage.getItem(REFRESH_TOKEN_KEY);
}

/**
 * The tab's token while it can still be used: unexpired, or expired with a refresh token to renew
 * it. The clock is read here, outside rendering.
 */
function readUsableToken(): string | null {
  const token = readToken();
  const claims = token === null ? null : decodeClaims(token);
  if (!claims) return null;
  return claims.exp * 1000 > Date.now() || readRefreshToken() !== null ? token : null;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => window.removeEventListener(CHANGE_EVENT, onChange);
}

/** A session's tokens as a sign-in, setup or refresh answers them. */
export interface TokenPair {
  readonly token: string;
  /** Kept only where the domain has the `refresh` endpoint; `null` forgets any kept before. */
  readonly refreshToken: string | null;
}

/** Keeps a session's tokens for this tab only. */
export function storeTokens({ token, refreshToken }: TokenPair): void {
  refusedByServer = false;
  window.sessionStorage.setItem(TOKEN_KEY, token);
  if (refreshToken === null) window.sessionStorage.removeItem(REFRESH_TOKEN_KEY);
  else window.sessionStorage.setItem(REFRESH_TOKEN_KEY, refreshToken);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Why a tab forgets its tokens: the user signed out, or the server refused the session for good (revoked, expired). */
export type SessionEnd = "signed-out" | "refused";

/** Forgets the tab's tokens. */
export function clearTokens(reason: SessionEnd = "signed-out"): void {
  refusedByServer = reason === "refused";
  window.sessionStorage.removeItem(TOKEN_KEY);
  window.sessionStorage.removeItem(REFRESH_TOKEN_KEY);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** The tab's token with its claims; `undefined` while not yet known (server render, hydration). */
export type Session = { readonly token: string; readonly claims: TokenClaims } | null;

/** The current tab's session; an unreadable token, or an expired one with nothing to renew it, counts as signed out. */
export function useSession(): Session | undefined {
  const token = useSyncExternalStore(subscribe, readUsableToken, () => undefined);
  return useMemo(() => {
    if (token === undefined) return undefined;
    const claims = token === null ? null : decodeClaims(token);
    return token && claims ? { token, claims } : null;
  }, [token]);
}

/** `true` once the server refused the tab's session (revoked or expired), until the next sign-in. */
export function useSessionRefused(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => refusedByServer,
    () => false,
  );
}
