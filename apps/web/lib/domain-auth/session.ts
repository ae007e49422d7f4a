import { useMemo, useSyncExternalStore } from "react";

/** The sessionStorage key of the bearer token; nothing else is stored in the browser. */
export const TOKEN_KEY = "domain-auth.token";
const CHANGE_EVENT = "domain-auth:session";

/** The claims of a domain-auth token that the pages use. */
export interface TokenClaims {
  readonly sub: string;
  readonly email: string;
  readonly role: string | null;
  readonly exp: number;
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
    const { sub, email, role, exp } = claims as Record<string, unknown>;
    if (typeof sub !== "string" || typeof email !== "string" || typeof exp !== "number") return null;
    return { sub, email, role: typeof role === "string" ? role : null, exp };
  } catch {
    return null;
  }
}

/** The tab's token while it is readable and unexpired; the clock is read here, outside rendering. */
export function readLiveToken(): string | null {
  const token = window.sessionStorage.getItem(TOKEN_KEY);
  const claims = token === null ? null : decodeClaims(token);
  return claims && claims.exp * 1000 > Date.now() ? token : null;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => window.removeEventListener(CHANGE_EVENT, onChange);
}

/** Keeps the token of a sign-in or setup for this tab only. */
export function storeToken(token: string): void {
  window.sessionStorage.setItem(TOKEN_KEY, token);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Signs out of this tab. */
export function clearToken(): void {
  window.sessionStorage.removeItem(TOKEN_KEY);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** The tab's token with its claims; `undefined` while not yet known (server render, hydration). */
export type Session = { readonly token: string; readonly claims: TokenClaims } | null;

/** The current tab's session; an expired or unreadable token counts as signed out. */
export function useSession(): Session | undefined {
  const token = useSyncExternalStore(subscribe, readLiveToken, () => undefined);
  return useMemo(() => {
    if (token === undefined) return undefined;
    const claims = token === null ? null : decodeClaims(token);
    return token && claims ? { token, claims } : null;
  }, [token]);
}
