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

/**
 * Calls the domain-auth API at `path`, one of the core's API paths.
 * @example const result = await callApi<{ user: User }>(apiPaths(auth).me, { token });
 */
export async function callApi<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
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
