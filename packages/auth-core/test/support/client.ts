import type { Auth } from "../../src/index.js";

/** A response, read. */
export interface ApiResult {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in tests
  readonly body: any;
  readonly text: string;
}

export interface CallOptions {
  readonly token?: string;
  readonly headers?: Record<string, string>;
  /** A raw body sent as is (with no JSON content type unless given in headers). */
  readonly raw?: string | Uint8Array | ReadableStream<Uint8Array>;
}

/** One request of a client: the method, the path, a JSON body and the options. */
export type Caller = (method: string, path: string, body?: unknown, options?: CallOptions) => Promise<ApiResult>;

/** A client over `call`, with a shorthand for each method. */
export function clientOf(call: Caller) {
  return {
    call,
    get: (path: string, options?: CallOptions) => call("GET", path, undefined, options),
    post: (path: string, body?: unknown, options?: CallOptions) => call("POST", path, body, options),
    patch: (path: string, body?: unknown, options?: CallOptions) => call("PATCH", path, body, options),
    delete: (path: string, options?: CallOptions) => call("DELETE", path, undefined, options),
  };
}

/** A client that calls an instance's handler in process, the way a server would. */
export function apiClient(auth: Auth, base = "http://localhost"): ApiClient {
  return clientOf(async (method, path, body, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | Uint8Array | ReadableStream<Uint8Array> | undefined = options.raw;
    if (body !== undefined) {
      headers["content-type"] ??= "application/json";
      payload = JSON.stringify(body);
    }
    const response = await auth.handle(
      new Request(`${base}${path}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}) }),
    );
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed, text };
  });
}

export type ApiClient = ReturnType<typeof clientOf>;
