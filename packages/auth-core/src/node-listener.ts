import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { PEER_ADDRESS_HEADER } from "./client-address.js";
import { writeError } from "./http/node-errors.js";
import { pendingBodyOf, RAW_HANDLE } from "./http/responses.js";

type Handler = (request: Request) => Promise<Response>;

/**
 * Adapts a Web-standard handler to `node:http`, recording the socket's peer address in
 * {@link PEER_ADDRESS_HEADER} (a client-sent value is replaced). For serving the API without a
 * framework. Given an instance's own `auth.handle` (not a function wrapping it), JSON answers go
 * to the socket as text, without building a Web body stream for each.
 *
 * @example
 * createServer(createNodeListener(auth.handle)).listen(3000);
 */
export function createNodeListener(handle: Handler): (request: IncomingMessage, response: ServerResponse) => void {
  const answer: Handler = (handle as Handler & { [RAW_HANDLE]?: Handler })[RAW_HANDLE] ?? handle;
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
    answer(request)
      .then(async (response) => {
        const headers: Record<string, string> = Object.fromEntries(response.headers);
        const text = pendingBodyOf(response);
        if (text !== undefined) {
          headers["content-length"] = String(Buffer.byteLength(text));
          outgoing.writeHead(response.status, headers);
          outgoing.end(text);
          return;
        }
        outgoing.writeHead(response.status, headers);
        outgoing.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
      })
      .catch(() => writeError(outgoing, "INTERNAL_ERROR"));
  };
}
