import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { PEER_ADDRESS_HEADER } from "./client-address.js";
import { writeError } from "./http/node-errors.js";

/**
 * Adapts a Web-standard handler to `node:http`, recording the socket's peer address in
 * {@link PEER_ADDRESS_HEADER} (a client-sent value is replaced). For serving the API without a
 * framework.
 *
 * @example
 * createServer(createNodeListener(auth.handle)).listen(3000);
 */
export function createNodeListener(
  handle: (request: Request) => Promise<Response>,
): (request: IncomingMessage, response: ServerResponse) => void {
  const toRequest = (incoming: IncomingMessage): Request => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value === undefined || name.toLowerCase() === PEER_ADDRESS_HEADER) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    headers.set(PEER_ADDRESS_HEADER, incoming.socket.remoteAddress ?? "unknown");
    const method = incoming.method ?? "GET";
    const hasBody = method !== "GET" && method !== "HEAD";
    return new Request(new URL(incoming.url ?? "/", "http://localhost"), {
      method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
    } as RequestInit);
  };
  return (incoming, outgoing) => {
    let request: Request;
    try {
      request = toRequest(incoming);
    } catch {
      writeError(outgoing, "BAD_REQUEST");
      return;
    }
    handle(request)
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
      })
      .catch(() => writeError(outgoing, "INTERNAL_ERROR"));
  };
}
