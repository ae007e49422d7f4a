/**
 * What the API reads of a request: its method, absolute URL, headers by name and body. A Web
 * `Request` is one; `createNodeListener` makes a lighter one for each node:http request, which
 * builds no Web headers list, abort signal or body stream.
 */
export interface ApiRequest {
  /** Upper case for the methods HTTP defines. */
  readonly method: string;
  /**
   * The absolute URL. Its path is read as it stands ({@link pathOf}): a Web `Request`'s URL is the
   * one its framework routed on; `createNodeListener` keeps the request target as the client sent it.
   */
  readonly url: string;
  readonly headers: Pick<Headers, "get" | "has">;
  /** The body's bytes in chunks (a Web stream, or Node's own request); `null` when the request has none. */
  readonly body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
}

/** The same request under another method and without a body (HEAD is answered as GET). */
export function withMethod(request: ApiRequest, method: string): ApiRequest {
  return { method, url: request.url, headers: request.headers, body: null };
}

const SCHEME_AND_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The path of an absolute URL exactly as it is written: not percent-decoded and with no `.` or `..`
 * segment resolved, so a path is never matched as another route than the one sent (`new URL()`
 * would resolve `/api/%zz/../post` to `/api/post`).
 */
export function pathOf(url: string): string {
  const path = url.replace(SCHEME_AND_AUTHORITY, "");
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `true` for the methods a cookie may authenticate from any origin (they change nothing). */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}
