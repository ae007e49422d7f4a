import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { DomainModel } from "./config/index.js";
import { loadDomain } from "./config/index.js";
import { type Auth, createAuth } from "./create-auth.js";
import type { MailOptions } from "./mail/mail-service.js";
import { createConsoleMailer, createSmtpMailer } from "./mail/mailer.js";
import { ConfigurationError } from "./options.js";
import { type AuthEnvironment, type AuthSettings, providerCredentialsFromEnv, readSettings } from "./settings.js";
import { MIN_SECRET_BYTES } from "./tokens/tokens.js";

/** The development secret kept under `.data/`, created on first use. */
function developmentSecret(dataDirectory: string): string {
  const file = resolve(dataDirectory, "auth-secret");
  try {
    const secret = readFileSync(file, "utf8").trim();
    if (secret.length >= MIN_SECRET_BYTES) return secret;
  } catch {}
  const secret = randomBytes(MIN_SECRET_BYTES).toString("base64url");
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The e-mail of an instance from the settings (docs/mail.md), or `undefined` when it sends none:
 * SMTP with `SMTP_URL`; else, outside production, messages printed to the output. Says at start
 * which, through `warn`.
 *
 * @throws {ConfigurationError} in production with `SMTP_URL` but no `APP_URL`, or with
 * `auth.verifyEmail: true` but no `SMTP_URL`.
 */
export function mailFromSettings(settings: AuthSettings, domain: DomainModel, warn: (line: string) => void): MailOptions | undefined {
  const auth = domain.auth;
  if (!auth) return undefined;
  if (settings.production && settings.smtpUrl && !settings.appUrl)
    throw new ConfigurationError("APP_URL must be set when SMTP_URL is set in production: the links in e-mails point at it");
  if (settings.production && !settings.smtpUrl && auth.verifyEmail)
    throw new ConfigurationError(
      "SMTP_URL must be set in production when domain.yaml has auth.verifyEmail: true (users could never confirm their address)",
    );
  const appUrl = settings.appUrl ?? `http://localhost:${settings.port}`;
  const usesMail = auth.endpoints.passwordReset || auth.endpoints.verifyEmail || auth.verifyEmail;
  if (settings.smtpUrl) {
    const from = settings.mailFrom ?? `no-reply@${new URL(appUrl).hostname}`;
    return { mailer: createSmtpMailer({ url: settings.smtpUrl, from }), appUrl };
  }
  if (settings.production) {
    if (usesMail)
      warn(
        "domain-auth: SMTP_URL is not set, so no e-mail is sent: forgot-password, reset-password, verify-email and resend-verification answer 404, and invitations are off",
      );
    return undefined;
  }
  if (usesMail) warn("domain-auth: warning: SMTP_URL is not set; e-mails are printed here instead of sent (set SMTP_URL in production)");
  return { mailer: createConsoleMailer(), appUrl };
}

/** Options of {@link createAuthFromEnv}. */
export interface CreateAuthFromEnvOptions {
  /** Receives one line for each development-only setting in use. @default console.warn */
  warn?: (line: string) => void;
}

/**
 * Creates an instance from the environment: `DOMAIN_FILE`, `DATABASE_URL`, `AUTH_SECRET`,
 * `AUTH_TOKEN_TTL`, `AUTH_REFRESH_TTL`, `AUTH_SESSION_MAX_AGE`, `AUTH_BCRYPT_COST`, `TRUST_PROXY`, `SETUP_TOKEN`, `AUTH_REGISTER_LIMIT`,
 * `AUTH_EVENT_RETENTION`,
 * `CORS_ORIGINS`, `APP_URL`, `SMTP_URL`, `MAIL_FROM`, and `AUTH_PROVIDER_<ID>_CLIENT_ID` and `_CLIENT_SECRET`
 * for each provider `auth.providers` declares (see {@link AuthEnvironment}).
 *
 * @throws {ConfigurationError | DomainConfigError | Error} with a one-line message on a bad setting,
 * an invalid domain.yaml or an unreachable database.
 */
export async function createAuthFromEnv(env: AuthEnvironment = process.env, options: CreateAuthFromEnvOptions = {}): Promise<Auth> {
  const warn = options.warn ?? ((line: string) => console.warn(line));
  const settings = readSettings(env);
  const domain = await loadDomain(settings.domainFile);
  if (settings.bcryptCost < 10)
    warn(`domain-auth: warning: AUTH_BCRYPT_COST=${settings.bcryptCost} is below 10: fast for tests, too weak for real passwords`);
  let secret = settings.secret;
  if (domain.auth && secret === undefined) {
    if (settings.production)
      throw new ConfigurationError(`AUTH_SECRET must be set (at least ${MIN_SECRET_BYTES} bytes) when NODE_ENV is production`);
    secret = developmentSecret(".data");
    warn(
      "domain-auth: warning: AUTH_SECRET is not set; using the development secret kept in .data/auth-secret (set AUTH_SECRET in production)",
    );
  }
  if (settings.production && domain.auth && !settings.appUrl)
    warn(
      "domain-auth: warning: APP_URL is not set: cookie sign-ins and passkeys take the request's Host header as the app's origin, and the session cookies are neither Secure nor __Host- prefixed; set APP_URL (https://…) in production",
    );
  const mail = mailFromSettings(settings, domain, warn);
  const providers = domain.auth?.providers ?? [];
  if (settings.production && providers.length > 0 && !settings.appUrl)
    throw new ConfigurationError(
      "APP_URL must be set in production when domain.yaml declares auth.providers: the callback URL providers redirect to is built from it",
    );
  return createAuth({
    domain,
    database: settings.databaseUrl,
    bcryptCost: settings.bcryptCost,
    tokenTtlSeconds: settings.tokenTtlSeconds,
    refreshTtlSeconds: settings.refreshTtlSeconds,
    sessionMaxAgeSeconds: settings.sessionMaxAgeSeconds,
    trustProxy: settings.trustProxy,
    registerLimit: settings.registerLimit,
    eventRetentionDays: settings.eventRetentionDays,
    reauthWindowSeconds: settings.reauthWindowSeconds,
    ...(secret ? { secret } : {}),
    ...(settings.setupToken ? { setupToken: settings.setupToken } : {}),
    ...(settings.corsOrigins ? { corsOrigins: settings.corsOrigins } : {}),
    ...(mail ? { mail } : {}),
    ...(settings.appUrl ? { appUrl: settings.appUrl } : {}),
    ...(providers.length > 0 ? { providers: providerCredentialsFromEnv(env, providers) } : {}),
  });
}

const INSTANCE = Symbol.for("domain-auth.instance");
type Global = typeof globalThis & { [INSTANCE]?: Promise<Auth> };

/**
 * The process-wide instance created from the environment (see {@link createAuthFromEnv}),
 * created on first call. A failed creation is not cached, so a later call tries again.
 */
export function authFromEnv(): Promise<Auth> {
  const global = globalThis as Global;
  global[INSTANCE] ??= createAuthFromEnv().catch((error: unknown) => {
    delete global[INSTANCE];
    throw error;
  });
  return global[INSTANCE];
}
