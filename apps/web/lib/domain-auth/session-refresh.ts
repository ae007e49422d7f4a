import { useEffect } from "react";
import { sessionClient } from "./session";
import type { RefreshingAuth } from "./session-client";

/**
 * Keeps the browser's session alive while the page is open, where the domain has `refresh`: renews
 * the access token shortly before it expires, and lets `callApi` renew it once after a 401
 * (`SessionClient.keepAlive`).
 */
export function useSessionRefresh(auth: RefreshingAuth): void {
  const { segment, endpoints } = auth;
  useEffect(() => sessionClient().keepAlive({ segment, endpoints }), [segment, endpoints]);
}
