/**
 * What the API reads of a request: its method, absolute URL, headers by name and body. A Web
 * `Request` is one; `createNodeListener` makes a lighter one for each node:http request, which
 * builds no Web headers list, abort signal or body stream.
 */
export interface ApiRequest {
  /** Upper case for the methods HTTP defines. */
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  readonly headers: Pick<Headers, "get" | "has">;
  /** The body's bytes in chunks (a Web stream, or Node's own request); `null` when the request has none. */
  readonly body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
}

/** The same request under another method and without a body (HEAD is answered as GET). */
export function withMethod(request: ApiRequest, method: string): ApiRequest {
  return { method, url: request.url, headers: request.headers, body: null };
}
