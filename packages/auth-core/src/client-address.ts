import type { ApiRequest } from "./http/api-request.js";
/** The header the web server sets to the socket's peer address; clients cannot set it. */
export const PEER_ADDRESS_HEADER = "x-domain-auth-peer";

/** The address of requests that arrive with none recorded: they share one throttling bucket. */
export const UNKNOWN_ADDRESS = "unknown";

/**
 * The client's address: the peer address the server recorded, or, behind `trustProxy` proxies,
 * the address the outermost trusted proxy saw (counted from the right of `X-Forwarded-For`).
 * Requests without a recorded address share one bucket, so throttling still applies.
 */
export function clientAddressOf(request: ApiRequest, trustProxy: number): string {
  const peer = request.headers.get(PEER_ADDRESS_HEADER)?.trim() || UNKNOWN_ADDRESS;
  if (trustProxy <= 0) return peer;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return forwarded[forwarded.length - trustProxy] ?? peer;
}
