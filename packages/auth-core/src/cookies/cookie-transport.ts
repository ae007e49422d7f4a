import { parseCookie, stringifySetCookie } from "cookie";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { MFA_TOKEN_TTL_SECONDS } from "../policy/second-factor.js";

/**
 * The cookie transport of docs/api.md#cookie-sessions: the session's access and refresh tokens in two HttpOnly
 * cookies, and the same-origin check that keeps another site from using them.
 */

/** A session's tokens as the cookies carry them, with their lifetimes in seconds. */
export interface CookieTokens {
  readonly token: string;
  readonly expiresIn: number;
  /** `null` where the domain has no `refresh` endpoint (no refresh cookie is set). */
  readonly refreshToken: string | null;
  readonly refreshExpiresIn: number | null;
}

/** The names of the two cookies: with the `__Host-` prefix when the app is served over https. */
export interface CookieNames {
  readonly access: string;
  readonly refresh: string;
  /** A provider sign-in's flow cookie (docs/providers.md#the-flow): it binds the flow to the browser that started it. */
  readonly flow: string;
  /** The `mfaToken` of a second step after a provider: in a cookie, never in a URL. */
  readonly mfa: string;
}

/** The cookie names for an app served over https (`secure`) or not. */
export function cookieNames(secure: boolean): CookieNames {
  const prefix = secure ? "__Host-" : "";
  return {
    access: `${prefix}domain-auth.token`,
    refresh: `${prefix}domain-auth.refresh-token`,
    flow: `${prefix}domain-auth.oauth-flow`,
    mfa: `${prefix}domain-auth.mfa`,
  };
}

/** How an instance reads, writes and guards its session cookies. */
export class CookieTransport {
  readonly names: CookieNames;
  readonly secure: boolean;
  /** `APP_URL`'s origin; `null` when unset (a request's own `Host` is its origin then). */
  readonly #appOrigin: string | null;

  constructor(appUrl: string | undefined) {
    const origin = appUrl ? new URL(appUrl) : null;
    this.#appOrigin = origin?.origin ?? null;
    this.secure = origin?.protocol === "https:";
    this.names = cookieNames(this.secure);
  }

  /** The value of the access cookie a request carries, or `null`. */
  accessToken(request: ApiRequest): string | null {
    return this.#read(request, this.names.access);
  }

  /** The value of the refresh cookie a request carries, or `null`. */
  refreshToken(request: ApiRequest): string | null {
    return this.#read(request, this.names.refresh);
  }

  #read(request: ApiRequest, name: string): string | null {
    const header = request.headers.get("cookie");
    if (header === null || !header.includes(name)) return null;
    const value = parseCookie(header)[name];
    return value === undefined || value === "" ? null : value;
  }

  /** The `Set-Cookie` values that hand a session's tokens to the browser. */
  sessionCookies(tokens: CookieTokens): string[] {
    const cookies = [this.#cookie(this.names.access, tokens.token, tokens.expiresIn)];
    if (tokens.refreshToken !== null && tokens.refreshExpiresIn !== null)
      cookies.push(this.#cookie(this.names.refresh, tokens.refreshToken, tokens.refreshExpiresIn));
    return cookies;
  }

  /**
   * A request's `Cookie` header with the session cookies in it replaced by `tokens`: every pair of
   * either name is left out (however often it was sent) and the new pairs are added at the end; every
   * other pair is passed on exactly as it was sent, neither decoded nor re-encoded, whatever its name
   * or value (a page's own cookies are not ours to validate).
   */
  replaceInHeader(header: string | null, tokens: { readonly token: string; readonly refreshToken: string }): string {
    const ours = new Set([this.names.access, this.names.refresh]);
    // Split and trimmed as `parseCookie` reads a header: on `;`, spaces and tabs around a name.
    const kept = (header ?? "")
      .split(";")
      .map((pair) => pair.replace(/^[ \t]+|[ \t]+$/g, ""))
      .filter((pair) => pair !== "" && !ours.has(pair.split("=", 1)[0]?.replace(/[ \t]+$/, "") ?? ""));
    return [...kept, `${this.names.access}=${tokens.token}`, `${this.names.refresh}=${tokens.refreshToken}`].join("; ");
  }

  /** The flow cookie a request carries (a provider's callback), or `null`. */
  flowBinding(request: ApiRequest): string | null {
    return this.#read(request, this.names.flow);
  }

  /** The `Set-Cookie` value of a provider flow's cookie, living as long as the flow (`maxAge` seconds; 0 removes it). */
  flowCookie(binding: string, maxAge: number): string {
    return this.#cookie(this.names.flow, binding, maxAge);
  }

  /** The `mfaToken` cookie a request carries (a second step after a provider), or `null`. */
  mfaToken(request: ApiRequest): string | null {
    return this.#read(request, this.names.mfa);
  }

  /** The `Set-Cookie` value of a second step's `mfaToken`, for the 5 minutes it lives (`""` removes it). */
  mfaCookie(token: string): string {
    return this.#cookie(this.names.mfa, token, token === "" ? 0 : MFA_TOKEN_TTL_SECONDS);
  }

  /** The `Set-Cookie` values that remove both cookies. */
  clearingCookies(): string[] {
    return [this.#cookie(this.names.access, "", 0), this.#cookie(this.names.refresh, "", 0)];
  }

  #cookie(name: string, value: string, maxAge: number): string {
    return stringifySetCookie({ name, value, maxAge, path: "/", httpOnly: true, sameSite: "lax", secure: this.secure });
  }

  /**
   * Refuses a request from another site: its `Origin` must be the app's own (`APP_URL`'s, else the
   * request's `Host`), or, without `Origin`, `Sec-Fetch-Site` must say `same-origin`.
   *
   * @throws {ApiError} 403 `FORBIDDEN_ORIGIN`.
   */
  checkOrigin(request: ApiRequest): void {
    if (!this.isSameOrigin(request)) throw new ApiError("FORBIDDEN_ORIGIN");
  }

  /** Whether a request comes from the app's own origin (see {@link checkOrigin}). */
  isSameOrigin(request: ApiRequest): boolean {
    const origin = request.headers.get("origin");
    if (origin === null) return request.headers.get("sec-fetch-site") === "same-origin";
    if (this.#appOrigin !== null) return origin === this.#appOrigin;
    const host = request.headers.get("host");
    if (host === null) return false;
    try {
      const url = new URL(origin);
      return url.origin === origin && url.host === host.toLowerCase();
    } catch {
      return false;
    }
  }
}
