import type { ErrorBody, ErrorCode } from "@domain-auth/core/policy";

/** Failures the browser sees itself: no answer at all, or an answer that is not the API's error body. */
export type ClientErrorCode = "NETWORK_ERROR" | "HTTP_ERROR";

/** The API's error body (`{ code, message, issues? }`), or a failure the browser saw itself. */
export interface ApiError extends Omit<ErrorBody, "code"> {
  readonly code: ErrorCode | ClientErrorCode;
  /** Seconds, from `Retry-After` (throttled sign-ins). */
  readonly retryAfter?: number;
}

/** The outcome of an API call: the parsed body or the error body, with the status. */
export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: ApiError };

/** Options of {@link callApi}. */
export interface CallOptions {
  /** @default "GET" */
  readonly method?: "GET" | "POST" | "PATCH" | "DELETE";
  readonly body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string | null;
}

function isApiError(value: unknown): value is ApiError {
  return typeof value === "object" && value !== null && typeof (value as ApiError).code === "string";
}

/** Renews a token the API refused: resolves to the token to try again with, or `null`. */
export type TokenRenewer = (rejected: string) => Promise<string | null>;

let tokenRenewer: TokenRenewer | null = null;

/** Installs the tab's token renewer (the session refresher) that {@link callApi} asks after a 401; `null` removes it. */
export function installTokenRenewer(renewer: TokenRenewer | null): void {
  tokenRenewer = renewer;
}

/** One request to the API, as it is: no renewal of a refused token. */
export async function requestApi<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      cache: "no-store",
    });
  } catch {
    return { ok: false, status: 0, error: { code: "NETWORK_ERROR", message: "The server could not be reached. Try again." } };
  }
  const body: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data: body as T };
  const retryAfter = Number(response.headers.get("retry-after") ?? Number.NaN);
  const error: ApiError = isApiError(body) ? body : { code: "HTTP_ERROR", message: `The server answered ${response.status}.` };
  return { ok: false, status: response.status, error: Number.isFinite(retryAfter) ? { ...error, retryAfter } : error };
}

/**
 * Calls the domain-auth API at `path`, one of the core's API paths. When a request carrying a token
 * is answered 401, the tab's session is refreshed once (where the domain allows it) and the request
 * sent again with the new token; a second 401 is the answer.
 * @example const result = await callApi<{ user: User }>(apiPaths(auth).me, { token });
 */
export async function callApi<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
  const result = await requestApi<T>(path, options);
  if (result.status !== 401 || !options.token || !tokenRenewer) return result;
  const renewed = await tokenRenewer(options.token);
  return renewed ? requestApi<T>(path, { ...options, token: renewed }) : result;
}

/**
 * The sentence to show above a form: when every issue is shown beside its input, a pointer to
 * them; otherwise the API's message with the issues no input shows.
 */
export function formErrorSummary(error: ApiError | null, fieldNames: readonly string[]): string | null {
  if (!error) return null;
  const issues = error.issues ?? [];
  if (issues.length === 0) return error.message;
  const unplaced = issues.filter((issue) => !fieldNames.includes(String(issue.path[0] ?? "")));
  if (unplaced.length === 0) return "Please correct the fields marked below.";
  return [error.message, ...unplaced.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)].join(" ");
}

/** The API's issues keyed by their first path element (the field name); the rest under `""`. */
export function issuesByField(error: ApiError | null): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const issue of error?.issues ?? []) {
    const field = String(issue.path[0] ?? "");
    byField[field] = byField[field] ? `${byField[field]} ${issue.message}` : issue.message;
  }
  return byField;
}
