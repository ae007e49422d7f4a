import { createContext, useContext, useSyncExternalStore } from "react";
import { forgetSessionCookies } from "./session-actions";
import { type Clock, SessionClient, type SessionState, SIGNED_OUT } from "./session-client";
import { browserChannel, browserLocks, SESSION_CHANNEL } from "./session-sync";

export { type SessionState, SIGNED_OUT } from "./session-client";

/** The browser's clock: `Date.now` and `setTimeout`. */
const browserClock: Clock = {
  now: () => Date.now(),
  schedule: (callback, delayMs) => {
    const timer = window.setTimeout(callback, delayMs);
    return () => window.clearTimeout(timer);
  },
};

let tabClient: SessionClient | null = null;

/** The tab's session client, created at its first use in the browser. Never on the server: it holds one tab's state. */
export function sessionClient(): SessionClient {
  tabClient ??= new SessionClient({
    clock: browserClock,
    fetch: (input, init) => fetch(input, init),
    locks: browserLocks(),
    channel: browserChannel<SessionState>(SESSION_CHANNEL),
    forget: forgetSessionCookies,
  });
  return tabClient;
}

/** The session as the server saw it when it rendered the page: what the page shows until the tab knows more. */
export const RenderedSession = createContext<SessionState>(SIGNED_OUT);

const subscribe = (onChange: () => void) => sessionClient().subscribe(onChange);

/**
 * The tab's session: as the server rendered it (so the page's HTML already shows the user), then as
 * sign-ins, renewals, sign-outs and the other tabs change it.
 */
export function useSession(): SessionState {
  const rendered = useContext(RenderedSession);
  return useSyncExternalStore(
    subscribe,
    () => sessionClient().snapshot() ?? rendered,
    () => rendered,
  );
}
