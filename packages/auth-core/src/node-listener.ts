import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { PEER_ADDRESS_HEADER } from "./client-address.js";
import type { ApiRequest } from "./http/api-request.js";
import { writeError } from "./http/node-errors.js";
import { nodeHeaders, type Reply } from "./http/responses.js";

type Handler = (request: Request) => Promise<Response>;

/** What answers requests read as {@link ApiRequest}s with {@link Reply}s: an instance made by `createAuth`. */
export interface ReplyingHandler {
  answer(request: ApiRequest): Promise<Reply>;
}

const PLACEHOLDER_ORIGIN = "http://localhost";

/**
 * The absolute URL of a request target as the client sent it: an origin-form target (`/api/…`) is
 * put after a placeholder origin as it stands, so no `..` is resolved and nothing is decoded.
 *
 * @throws {TypeError} when the target is no URL at all.
 */
function targetUrl(target: string): string {
  // Throws for a target no URL parser accepts; the URL it makes is not used, being normalized.
  new URL(target, PLACEHOLDER_ORIGIN);
  return target.startsWith("/") ? `${PLACEHOLDER_ORIGIN}${target}` : target;
}

/**
 * A node:http request as the API reads it. Header names are looked up in Node's own parsed
 * headers (a repeated header joined with ", " as a Web `Headers` joins it, where Node keeps the
 * values), the peer address header is the socket's, whatever the client sent, and the body is
 * Node's request itself.
 */
class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Pick<Headers, "get" | "has">;
  readonly #incoming: IncomingMessage;

  constructor(incoming: IncomingMessage) {
    this.#incoming = incoming;
    this.method = incoming.method ?? "GET";
    this.url = targetUrl(incoming.url ?? "/");
    const raw = incoming.headers;
    const peer = incoming.socket.remoteAddress ?? "unknown";
    const get = (name: string): string | null => {
      const key = name.toLowerCase();
      if (key === PEER_ADDRESS_HEADER) return peer;
      const value = raw[key];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    };
    this.headers = { get, has: (name) => get(name) !== null };
  }

  get body(): AsyncIterable<Uint8Array> | null {
    return this.method === "GET" || this.method === "HEAD" ? null : this.#incoming;
  }
}

/** A `node:http` request listener. */
export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Serves an instance, or any Web-standard handler, on `node:http`, recording the socket's peer
 * address in {@link PEER_ADDRESS_HEADER} (a client-sent value is replaced). Given the instance
 * itself, no Web `Request` or `Response` is built: the request is read from Node's own, its path
 * kept as sent, and the answer written as text.
 *
 * @example
 * createServer(createNodeListener(auth)).listen(3000);
 */
export function createNodeListener(target: ReplyingHandler | Handler): NodeListener {
  return typeof target === "function" ? webListener(target) : replyListener((request) => target.answer(request));
}

/** An instance's own pipeline: Node's request read as it is, the reply written as text. */
function replyListener(answer: (request: ApiRequest) => Promise<Reply>): NodeListener {
  return (incoming, outgoing) => {
    let request: NodeApiRequest;
    try {
      request = new NodeApiRequest(incoming);
    } catch {
      writeError(outgoing, "BAD_REQUEST");
      return;
    }
    answer(request)
      .then((reply) => {
        if (reply.body === null) {
          outgoing.writeHead(reply.status, nodeHeaders(reply));
          outgoing.end();
          return;
        }
        outgoing.writeHead(reply.status, { ...nodeHeaders(reply), "content-length": String(Buffer.byteLength(reply.body)) });
        outgoing.end(reply.body);
      })
      .catch(() => writeError(outgoing, "INTERNAL_ERROR"));
  };
}

/** Any other Web-standard handler: a Web `Request` in, its `Response` written out. */
function webListener(handle: Handler): NodeListener {
  return (incoming, outgoing) => {
    let request: Request;
    try {
      request = toWebRequest(incoming);
    } catch {
      writeError(outgoing, "BAD_REQUEST");
      return;
    }
    handle(request)
      .then(async (response) => {
        outgoing.writeHead(response.status, headersOf(response.headers));
        outgoing.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
      })
      .catch(() => writeError(outgoing, "INTERNAL_ERROR"));
  };
}

/** A Web response's headers as node:http writes them, each `Set-Cookie` kept on its own. */
function headersOf(headers: Headers): Record<string, string | string[]> {
  const written: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (name !== "set-cookie") written[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) written["set-cookie"] = cookies;
  return written;
}

/** A Web `Request` of a node:http request, for a handler other than an instance's own. */
function toWebRequest(incoming: IncomingMessage): Request {
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
}
