/** One answer of the server, with its body parsed when it is JSON. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed JSON body, `undefined` when the body is empty or not JSON. */
  readonly body: unknown;
}

/** What {@link call} sends. */
export interface Call {
  readonly method?: string;
  /** A path under the server, such as `/api/user/login`. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A string or bytes are sent as they are; anything else as JSON with `Content-Type: application/json`. */
  readonly body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** How long to wait for the answer. @default 10000 */
  readonly timeoutMs?: number;
}

/** The JSON value of a body, `undefined` when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Sends one request with `fetch` (60 s at most, unless `timeoutMs` says otherwise: a limit against a
 * hung server, far above what any answer takes, even under a burst on a loaded machine) on a connection of
 * its own (`Connection: close`). A kept-alive connection would be given up by the server once idle for
 * its keep-alive timeout (5 s): a request sent on it as that happens, or while the server or this process
 * was held up that long (a SQLite write waiting for a lock, a loaded machine), is lost with "other side
 * closed" instead of answered late. Only loopback URLs are accepted.
 */
export async function call(baseUrl: string, request: Call): Promise<Answer> {
  if (!baseUrl.startsWith("http://127.0.0.1:")) throw new Error(`refusing a non-loopback URL: ${baseUrl}`);
  const headers: Record<string, string> = { connection: "close", ...request.headers };
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (typeof request.body === "string") body = request.body;
  else if (request.body instanceof Uint8Array)
    body = request.body.slice(); // fetch detaches what it sends
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers["content-type"] ??= "application/json";
  }
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method ?? (request.body === undefined ? "GET" : "POST"),
    headers,
    ...(body === undefined ? {} : { body }),
    redirect: "manual",
    signal: AbortSignal.timeout(request.timeoutMs ?? 60_000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseJson(text) };
}
