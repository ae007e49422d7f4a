import { ERROR_CODES, type ErrorBody, type ErrorCode } from "@domain-auth/core/policy";

/** The outcome of an API call: the parsed body, or the API's error body, with the status. */
export type ApiResult<T> = { ok: true; status: number; data: T } | ApiFailure;

/**
 * A refused or failed call. `error` is the API's error body; when no answer came (status 0) or the
 * answer was not the API's, a body of the core's codes standing for it (`UNAVAILABLE`, or the code of that status).
 */
export interface ApiFailure {
  readonly ok: false;
  readonly status: number;
  readonly error: ErrorBody;
  /** Seconds, from `Retry-After` (throttled sign-ins). */
  readonly retryAfter?: number;
}

/** Options of a call to the API. */
export interface CallOptions {
  /** @default "GET" */
  readonly method?: "GET" | "POST" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  readonly body?: unknown;
  /**
   * Sent as `Authorization: Bearer <token>`, which the server reads instead of the session cookie: the
   * `mfaToken` of a required enrolment (docs/mfa.md), the one token a page ever holds, for five minutes.
   * @default none: the session cookies speak for the tab
   */
  readonly bearer?: string;
}

/** The `fetch` the pages call the API with (the browser's; a test's stand-in). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === "object" && value !== null && typeof (value as ErrorBody).code === "string";
}

/** The core's code for an answer that carried no error body of the API's. */
function codeOfStatus(status: number): ErrorCode {
  const known = (Object.keys(ERROR_CODES) as ErrorCode[]).find((code) => ERROR_CODES[code].status === status);
  return known ?? (status >= 500 ? "UNAVAILABLE" : "BAD_REQUEST");
}

/**
 * One same-origin request to the API, as it is: the session cookies go with it (the browser adds
 * them; no token is ever in the page's hands), and a refused session is not renewed.
 */
export async function requestApi<T>(fetch: FetchLike, path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      cache: "no-store",
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, error: { code: "UNAVAILABLE", message: "The server could not be reached. Try again." } };
  }
  const body: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data: body as T };
  const retryAfter = Number(response.headers.get("retry-after") ?? Number.NaN);
  const error: ErrorBody = isErrorBody(body)
    ? body
    : { code: codeOfStatus(response.status), message: `The server answered ${response.status}.` };
  return Number.isFinite(retryAfter)
    ? { ok: false, status: response.status, error, retryAfter }
    : { ok: false, status: response.status, error };
}
