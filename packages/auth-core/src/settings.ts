import { type CorsOrigins, parseCorsOrigins } from "./http/cors.js";
import { DEFAULT_REFRESH_TTL_SECONDS, DEFAULT_SESSION_MAX_AGE_SECONDS } from "./sessions/sessions.js";
import { DEFAULT_REGISTER_LIMIT } from "./throttle/register-throttle.js";
import { MIN_SETUP_TOKEN_BYTES } from "./tokens/setup-token.js";
import { MIN_SECRET_BYTES } from "./tokens/tokens.js";

/** The environment variables domain-auth reads (CONTRACT 2). */
export interface AuthEnvironment {
  DOMAIN_FILE?: string;
  DATABASE_URL?: string;
  AUTH_SECRET?: string;
  AUTH_TOKEN_TTL?: string;
  AUTH_BCRYPT_COST?: string;
  TRUST_PROXY?: string;
  /**
   * When set (at least 16 bytes), `POST setup` needs `{"setupToken": …}` equal to it, so a fresh
   * instance cannot be claimed by whoever reaches it first. Empty or unset: setup stays anonymous.
   */
  SETUP_TOKEN?: string;
  AUTH_REGISTER_LIMIT?: string;
  AUTH_REFRESH_TTL?: string;
  AUTH_SESSION_MAX_AGE?: string;
  /** `*`, or comma-separated exact origins (`https://app.example.com`) allowed to call `/api/*` from a browser. */
  CORS_ORIGINS?: string;
  /** The public origin of the web app, used in the links of e-mails. */
  APP_URL?: string;
  /** Where e-mail is sent: `smtp://user:pass@host:587` or `smtps://…`. */
  SMTP_URL?: string;
  /** The sender of e-mails. */
  MAIL_FROM?: string;
  PORT?: string;
  NODE_ENV?: string;
}

/** A setting in the environment that cannot be used. */
export class EnvironmentError extends Error {
  override readonly name = "EnvironmentError";
}

/** The environment's settings, validated: what the server, the `admin` command and tools start from. */
export interface AuthSettings {
  /** `NODE_ENV` is `production`. */
  readonly production: boolean;
  /** `DOMAIN_FILE`. @default "domain.yaml" */
  readonly domainFile: string;
  /** `DATABASE_URL`. @default "file:.data/app.db" */
  readonly databaseUrl: string;
  /** `AUTH_SECRET` as given (at least 32 bytes), `undefined` when unset. */
  readonly secret: string | undefined;
  /** `AUTH_BCRYPT_COST`: 10 to 31, and from 4 outside production. @default 10 */
  readonly bcryptCost: number;
  /** `AUTH_TOKEN_TTL` in seconds. @default 3600 */
  readonly tokenTtlSeconds: number;
  /** `AUTH_REFRESH_TTL`: a refresh token's lifetime in seconds, from the session's last refresh. @default 2592000 */
  readonly refreshTtlSeconds: number;
  /** `AUTH_SESSION_MAX_AGE`: no session outlives this many seconds from its sign-in. @default 7776000 */
  readonly sessionMaxAgeSeconds: number;
  /** `TRUST_PROXY`: proxy hops to trust. @default 0 */
  readonly trustProxy: number;
  /** `AUTH_REGISTER_LIMIT`: registrations per client address per hour. @default 100 */
  readonly registerLimit: number;
  /** `SETUP_TOKEN` (at least 16 bytes), `undefined` when unset or empty. */
  readonly setupToken: string | undefined;
  /** `CORS_ORIGINS`: the origins allowed to call the API from a browser, `*` for any; `null` when unset (same origin only). */
  readonly corsOrigins: CorsOrigins | null;
  /**
   * `APP_URL`: the web app's public origin, links in e-mails point only here; `undefined` when
   * unset (outside production `http://localhost:$PORT` is used).
   */
  readonly appUrl: string | undefined;
  /** `SMTP_URL`; `undefined` when unset: outside production messages are printed instead. */
  readonly smtpUrl: string | undefined;
  /** `MAIL_FROM`; `undefined` when unset (`no-reply@<host of APP_URL>`). */
  readonly mailFrom: string | undefined;
  /** `PORT` (0: any free port). @default 3000 */
  readonly port: number;
}

function corsOrigins(env: AuthEnvironment): CorsOrigins | null {
  try {
    return parseCorsOrigins(env.CORS_ORIGINS);
  } catch (error) {
    throw new EnvironmentError(
      `CORS_ORIGINS must be '*' or comma-separated origins like https://app.example.com: ${(error as Error).message}`,
    );
  }
}

function integer(env: AuthEnvironment, name: keyof AuthEnvironment, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new EnvironmentError(`${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  return value;
}

/** An origin as `APP_URL` must be: http(s), no credentials, query or fragment; returned without a trailing slash. */
function appUrlOf(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EnvironmentError(`APP_URL must be an absolute http(s) URL such as https://app.example.com, got '${raw}'`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash)
    throw new EnvironmentError(`APP_URL must be an http(s) URL with no credentials, query or fragment, got '${raw}'`);
  return url.href.replace(/\/+$/, "");
}

/** `SMTP_URL` must be an smtp:// or smtps:// URL; its password is never repeated in the message. */
function smtpUrlOf(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(raw).protocol;
  } catch {}
  if (protocol !== "smtp:" && protocol !== "smtps:")
    throw new EnvironmentError("SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587");
  return raw;
}

function byteLength(value: string): number {
  return new TextEncoder().encode(value).byteLength;
}

/**
 * Reads and validates the environment's settings (CONTRACT 2); reads no file and opens nothing.
 *
 * @throws {EnvironmentError} with a one-line message naming the variable, on a value that cannot be used.
 */
export function readSettings(env: AuthEnvironment = process.env): AuthSettings {
  const production = env.NODE_ENV === "production";
  const secret = env.AUTH_SECRET;
  if (secret !== undefined && byteLength(secret) < MIN_SECRET_BYTES)
    throw new EnvironmentError(`AUTH_SECRET must be at least ${MIN_SECRET_BYTES} bytes`);
  const setupToken = env.SETUP_TOKEN || undefined;
  if (setupToken !== undefined && byteLength(setupToken) < MIN_SETUP_TOKEN_BYTES)
    throw new EnvironmentError(`SETUP_TOKEN must be at least ${MIN_SETUP_TOKEN_BYTES} bytes (or unset for an anonymous setup)`);
  return {
    production,
    domainFile: env.DOMAIN_FILE || "domain.yaml",
    databaseUrl: env.DATABASE_URL || "file:.data/app.db",
    secret,
    bcryptCost: integer(env, "AUTH_BCRYPT_COST", 10, production ? 10 : 4, 31),
    tokenTtlSeconds: integer(env, "AUTH_TOKEN_TTL", 3600, 1, 366 * 24 * 3600),
    refreshTtlSeconds: integer(env, "AUTH_REFRESH_TTL", DEFAULT_REFRESH_TTL_SECONDS, 1, 10 * 366 * 24 * 3600),
    sessionMaxAgeSeconds: integer(env, "AUTH_SESSION_MAX_AGE", DEFAULT_SESSION_MAX_AGE_SECONDS, 1, 10 * 366 * 24 * 3600),
    trustProxy: integer(env, "TRUST_PROXY", 0, 0, 32),
    registerLimit: integer(env, "AUTH_REGISTER_LIMIT", DEFAULT_REGISTER_LIMIT, 1, 1_000_000),
    setupToken,
    corsOrigins: corsOrigins(env),
    appUrl: appUrlOf(env.APP_URL),
    smtpUrl: smtpUrlOf(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || undefined,
    port: integer(env, "PORT", 3000, 0, 65535),
  };
}
