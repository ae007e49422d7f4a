/**
 * The security headers of the API and of the web app's pages (docs/security.md#security-headers), framework-free and with no
 * dependencies, so the app's proxy and a scaffolded project's build them the same way.
 */

import { AUTH_ITEM_PAGES, AUTH_PAGES, AUTH_SECTION_PAGES } from "../config/vocabulary.js";

/**
 * `true` for the path of one of the web app's auth pages (`AUTH_PAGES`), of an item under one
 * of `AUTH_ITEM_PAGES` (`/orgs/<id>`) or of any page under one of `AUTH_SECTION_PAGES`
 * (`/admin/users/<id>`), which get {@link securityHeaders}.
 */
export function isAuthPage(pathname: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (AUTH_PAGES_SET.has(path)) return true;
  const item = /^\/([^/]+)\/[^/]+$/.exec(path);
  if (item !== null && AUTH_ITEM_PAGES_SET.has(item[1] ?? "")) return true;
  const section = /^\/([^/]+)\/./.exec(path);
  return section !== null && AUTH_SECTION_PAGES_SET.has(section[1] ?? "");
}

/**
 * Headers on every API response: no MIME sniffing, and no cache keeps a copy, since answers depend on the
 * caller's token and hold tokens, users and records.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
});

/** Options of {@link securityHeaders}. */
export interface SecurityHeadersOptions {
  /** This response's nonce (see {@link createNonce}): only scripts carrying it, and what they load, run. */
  readonly nonce: string;
  /** The public origin of the app (`APP_URL`); an `https:` origin adds `Strict-Transport-Security`. */
  readonly appUrl?: string | undefined;
  /**
   * `true` under `next dev`, whose React evaluates code for its error overlay and injects styles with no
   * nonce: adds `'unsafe-eval'` to `script-src` and allows inline styles. Never in production.
   * @default false
   */
  readonly development?: boolean;
}

const AUTH_PAGES_SET: ReadonlySet<string> = new Set(AUTH_PAGES);
const AUTH_ITEM_PAGES_SET: ReadonlySet<string> = new Set(AUTH_ITEM_PAGES);
const AUTH_SECTION_PAGES_SET: ReadonlySet<string> = new Set(AUTH_SECTION_PAGES);

const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/** A fresh nonce for one response: 128 random bits, base64. */
export function createNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The `Content-Security-Policy` of a page: scripts only from this origin's pages that carry the nonce (and
 * what those load), no plugins, no `<base>`, forms posting only here, and no framing by any origin.
 */
export function contentSecurityPolicy(options: SecurityHeadersOptions): string {
  if (!NONCE.test(options.nonce)) throw new Error("a nonce is at least 16 base64 characters");
  const nonce = `'nonce-${options.nonce}'`;
  const development = options.development === true;
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${nonce} 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' ${development ? "'unsafe-inline'" : nonce}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (isHttps(options.appUrl)) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/**
 * The headers every page carries: its `Content-Security-Policy`, `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer` (links carry tokens) and, when the app is served over https,
 * `Strict-Transport-Security`.
 *
 * @example
 * const nonce = createNonce();
 * const headers = securityHeaders({ nonce, appUrl: process.env.APP_URL });
 * // headers["content-security-policy"] → "default-src 'self'; script-src 'self' 'nonce-…' 'strict-dynamic'; …"
 */
export function securityHeaders(options: SecurityHeadersOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {
    "content-security-policy": contentSecurityPolicy(options),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };
  if (isHttps(options.appUrl)) headers["strict-transport-security"] = "max-age=31536000";
  return headers;
}

function isHttps(appUrl: string | undefined): boolean {
  if (!appUrl) return false;
  try {
    return new URL(appUrl).protocol === "https:";
  } catch {
    return false;
  }
}
