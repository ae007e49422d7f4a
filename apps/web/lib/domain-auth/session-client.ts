import { apiPaths, ERROR_CODES, type ErrorBody, type ErrorCode } from "@domain-auth/core/policy";
import type { AuthView } from "./domain-view";

/** The storage key of the bearer (access) token. */
export const TOKEN_KEY = "domain-auth.token";
/** The storage key of the session's refresh token; with the access token, all the browser stores. */
export const REFRESH_TOKEN_KEY = "domain-auth.refresh-token";

/** The longest a token is renewed ahead of its expiry, in seconds; shorter tokens are renewed at three quarters of their life. */
const MAX_LEAD_SECONDS = 60;
/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The claims of a domain-auth token that the pages use. */
export interface TokenClaims {
  readonly sub: string;
  readonly email: string;
  readonly role: string | null;
  readonly iat: number;
  readonly exp: number;
  /** The session the token belongs to (CONTRACT 10). */
  readonly sid: string | null;
}

/** Reads a JWT's payload without verifying it: the server verifies every request. */
export function decodeClaims(token: string): TokenClaims | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof claims !== "object" || claims === null) return null;
    const { sub, email, role, iat, exp, sid } = claims as Record<string, unknown>;
    if (typeof sub !== "string" || typeof email !== "string" || typeof exp !== "number") return null;
    return {
      sub,
      email,
      role: typeof role === "string" ? role : null,
      iat: typeof iat === "number" ? iat : exp,
      exp,
      sid: typeof sid === "string" ? sid : null,
    };
  } catch {
    return null;
  }
}

/** When to renew a token issued at `iat` that expires at `exp` (seconds), in milliseconds from `now`. */
export function refreshDelay(claims: { readonly iat: number; readonly exp: number }, now: number): number {
  const lead = Math.min(MAX_LEAD_SECONDS, Math.max(0, claims.exp - claims.iat) / 4);
  return Math.min(MAX_TIMER_MS, Math.max(0, (claims.exp - lead) * 1000 - now));
}

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

/** Options of {@link SessionClient.call}. */
export interface CallOptions {
  /** @default "GET" */
  readonly method?: "GET" | "POST" | "PATCH" | "DELETE";
  readonly body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string | null;
}

/** A session's tokens as a sign-in, setup or refresh answers them. */
export interface TokenPair {
  readonly token: string;
  /** Kept only where the domain has the `refresh` endpoint; `null` forgets any kept before. */
  readonly refreshToken: string | null;
}

/** Why a tab forgets its tokens: the user signed out, or the server refused the session for good (revoked, expired). */
export type SessionEnd = "signed-out" | "refused";

/** What refreshing needs of the `auth` block. */
export type RefreshingAuth = Pick<AuthView, "segment" | "endpoints">;

/** The time as the client sees it: the current instant and a way to run something later. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` after `delayMs`; the returned function cancels it. */
  schedule(callback: () => void, delayMs: number): () => void;
}

/** What a {@link SessionClient} works with: the tab's storage, its clock and its `fetch`. */
export interface SessionClientOptions {
  readonly storage: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  readonly clock: Clock;
  readonly fetch: (input: string, init: RequestInit) => Promise<Response>;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === "object" && value !== null && typeof (value as ErrorBody).code === "string";
}

/** The core's code for an answer that carried no error body of the API's. */
function codeOfStatus(status: number): ErrorCode {
  const known = (Object.keys(ERROR_CODES) as ErrorCode[]).find((code) => ERROR_CODES[code].status === status);
  return known ?? (status >= 500 ? "UNAVAILABLE" : "BAD_REQUEST");
}

/**
 * Everything a tab knows of its session: the tokens (in the storage given, `sessionStorage` in the
 * browser), who listens for changes, whether the server refused the session, the refresh under way
 * and the renewal timer. One per tab ({@link sessionClient}); tests create their own with a fake clock.
 */
export class SessionClient {
  readonly #storage: SessionClientOptions["storage"];
  readonly #clock: Clock;
  readonly #fetch: SessionClientOptions["fetch"];
  readonly #listeners = new Set<() => void>();
  /** Whether the tab's last session ended because the server refused it (kept in memory only). */
  #refused = false;
  #inFlight: Promise<string | null> | null = null;
  /** Where a 401 may be answered with one refresh: set while {@link keepAlive} runs. */
  #renewing: RefreshingAuth | null = null;

  constructor(options: SessionClientOptions) {
    this.#storage = options.storage;
    this.#clock = options.clock;
    this.#fetch = options.fetch;
  }

  /** The tab's access token as stored, expired or not (calls send it; a 401 then refreshes it). */
  readonly readToken = (): string | null => this.#storage.getItem(TOKEN_KEY);

  /** The tab's refresh token, when the session has one the pages may use. */
  readonly readRefreshToken = (): string | null => this.#storage.getItem(REFRESH_TOKEN_KEY);

  /** The tab's token while it can still be used: unexpired, or expired with a refresh token to renew it. */
  readonly usableToken = (): string | null => {
    const token = this.readToken();
    const claims = token === null ? null : decodeClaims(token);
    if (!claims) return null;
    return claims.exp * 1000 > this.#clock.now() || this.readRefreshToken() !== null ? token : null;
  };

  /** `true` once the server refused the tab's session (revoked or expired), until the next sign-in. */
  readonly isRefused = (): boolean => this.#refused;

  /** Calls `listener` whenever the tokens change; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  /** Keeps a session's tokens. */
  store({ token, refreshToken }: TokenPair): void {
    this.#refused = false;
    this.#storage.setItem(TOKEN_KEY, token);
    if (refreshToken === null) this.#storage.removeItem(REFRESH_TOKEN_KEY);
    else this.#storage.setItem(REFRESH_TOKEN_KEY, refreshToken);
    this.#changed();
  }

  /** Forgets the tab's tokens. */
  clear(reason: SessionEnd = "signed-out"): void {
    this.#refused = reason === "refused";
    this.#storage.removeItem(TOKEN_KEY);
    this.#storage.removeItem(REFRESH_TOKEN_KEY);
    this.#changed();
  }

  /** One request to the API, as it is: no renewal of a refused token. */
  async request<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let response: Response;
    try {
      response = await this.#fetch(path, {
        method: options.method ?? "GET",
        headers,
        body: options.body === undefined ? null : JSON.stringify(options.body),
        cache: "no-store",
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

  /**
   * Calls the domain-auth API at `path`, one of the core's API paths. When a request carrying a token
   * is answered 401 while {@link keepAlive} runs, the session is refreshed once (where the domain
   * allows it) and the request sent again with the new token; a second 401 is the answer.
   */
  async call<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
    const result = await this.request<T>(path, options);
    const renewing = this.#renewing;
    if (result.status !== 401 || !options.token || !renewing) return result;
    const renewed = await this.renewRejected(renewing, options.token);
    return renewed ? this.request<T>(path, { ...options, token: renewed }) : result;
  }

  async #runRefresh(auth: RefreshingAuth): Promise<string | null> {
    const refreshToken = this.readRefreshToken();
    if (!refreshToken) return null;
    const result = await this.request<{ token: string; refreshToken: string }>(apiPaths(auth).refresh, {
      method: "POST",
      body: { refreshToken },
    });
    if (result.ok) {
      this.store({ token: result.data.token, refreshToken: result.data.refreshToken });
      return result.data.token;
    }
    // Refused for good (spent, revoked, expired, user gone): the session is over. A network failure
    // or a 503 keeps the tokens for the next attempt.
    if (result.status === 401 || result.status === 400) this.clear("refused");
    return null;
  }

  /**
   * Exchanges the refresh token for a new token pair (`POST /api/<auth>/refresh`) and keeps it;
   * resolves to the new access token, or `null`. Calls made while one runs share it, so a tab never
   * spends one refresh token twice.
   */
  refresh(auth: RefreshingAuth): Promise<string | null> {
    if (!auth.endpoints.refresh) return Promise.resolve(null);
    this.#inFlight ??= this.#runRefresh(auth).finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  /** After a 401 for `rejected`: the tab's newer token when it already has one, else one refresh attempt. */
  renewRejected(auth: RefreshingAuth, rejected: string): Promise<string | null> {
    const current = this.readToken();
    if (current && current !== rejected) return Promise.resolve(current);
    return this.refresh(auth);
  }

  /**
   * Keeps the session alive, where the domain has `refresh`: renews the access token shortly before
   * it expires (a quarter of its lifetime ahead, at most 60 seconds), again after each change of
   * tokens, and lets {@link call} renew it once after a 401. Returns the function that stops it.
   */
  keepAlive(auth: RefreshingAuth): () => void {
    if (!auth.endpoints.refresh) return () => {};
    this.#renewing = auth;
    let cancelTimer = () => {};
    let scheduledFor: string | null = null;
    const schedule = () => {
      const token = this.usableToken();
      if (token === scheduledFor) return;
      cancelTimer();
      cancelTimer = () => {};
      scheduledFor = token;
      const claims = token === null ? null : decodeClaims(token);
      if (!claims) return;
      cancelTimer = this.#clock.schedule(() => void this.refresh(auth), refreshDelay(claims, this.#clock.now()));
    };
    const unsubscribe = this.subscribe(schedule);
    schedule();
    return () => {
      unsubscribe();
      cancelTimer();
      if (this.#renewing === auth) this.#renewing = null;
    };
  }

  /**
   * Signs the tab out: `POST /api/<auth>/logout` (where the domain has it) revokes the session on
   * every instance, then the tab forgets its tokens, whatever the server answered.
   */
  async signOut(auth: RefreshingAuth): Promise<void> {
    const token = this.readToken();
    if (token && auth.endpoints.logout) await this.call(apiPaths(auth).logout, { method: "POST", token });
    this.clear();
  }
}

/** The browser's clock: `Date.now` and `setTimeout`. */
const browserClock: Clock = {
  now: () => Date.now(),
  schedule: (callback, delayMs) => {
    const timer = window.setTimeout(callback, delayMs);
    return () => window.clearTimeout(timer);
  },
};

let tabClient: SessionClient | null = null;

/** The tab's session client, created at its first use in the browser over `sessionStorage`. */
export function sessionClient(): SessionClient {
  tabClient ??= new SessionClient({
    storage: window.sessionStorage,
    clock: browserClock,
    fetch: (input, init) => fetch(input, init),
  });
  return tabClient;
}
