import type { ApiRequest } from "../http/api-request.js";

/** Who passkeys are made for and where their ceremonies must happen (WebAuthn's relying party). */
export interface RelyingParty {
  /** The RP ID: the app's host name, without port. */
  readonly id: string;
  /** The origin the browser must report; `null` when it cannot be known (no `APP_URL` and no `Origin`). */
  readonly origin: string | null;
}

/**
 * The relying party of a request (docs/mfa.md): `APP_URL`'s host and origin when it is set;
 * otherwise, in development, the request's own: its `Host`, and its `Origin` when that names the
 * same host (another site's `Origin` is never trusted).
 */
export function relyingPartyOf(appUrl: string | undefined, request: ApiRequest): RelyingParty | null {
  if (appUrl) {
    const url = new URL(appUrl);
    return { id: url.hostname, origin: url.origin };
  }
  const host = request.headers.get("host")?.toLowerCase();
  if (!host) return null;
  let id: string;
  try {
    id = new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
  return { id, origin: sameHostOrigin(request.headers.get("origin"), host) };
}

function sameHostOrigin(origin: string | null, host: string): string | null {
  if (origin === null) return null;
  try {
    const url = new URL(origin);
    return url.origin === origin && url.host === host ? origin : null;
  } catch {
    return null;
  }
}
