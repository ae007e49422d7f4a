import { useMemo, useSyncExternalStore } from "react";
import { decodeClaims, sessionClient, type TokenClaims } from "./session-client";

export { decodeClaims, REFRESH_TOKEN_KEY, TOKEN_KEY, type TokenClaims } from "./session-client";

const subscribe = (onChange: () => void) => sessionClient().subscribe(onChange);
const usableToken = () => sessionClient().usableToken();
const isRefused = () => sessionClient().isRefused();

/** The tab's access token as stored, expired or not (calls send it; a 401 then refreshes it). */
export function readToken(): string | null {
  return sessionClient().readToken();
}

/** Forgets the tab's tokens because the server refused the session for good (revoked, expired). */
export function endRefusedSession(): void {
  sessionClient().clear("refused");
}

/** The tab's token with its claims; `undefined` while not yet known (server render, hydration). */
export type Session = { readonly token: string; readonly claims: TokenClaims } | null;

/** The current tab's session; an unreadable token, or an expired one with nothing to renew it, counts as signed out. */
export function useSession(): Session | undefined {
  const token = useSyncExternalStore(subscribe, usableToken, () => undefined);
  return useMemo(() => {
    if (token === undefined) return undefined;
    const claims = token === null ? null : decodeClaims(token);
    return token && claims ? { token, claims } : null;
  }, [token]);
}

/** `true` once the server refused the tab's session (revoked or expired), until the next sign-in. */
export function useSessionRefused(): boolean {
  return useSyncExternalStore(subscribe, isRefused, () => false);
}
