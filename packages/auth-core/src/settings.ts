import type { ProviderModel } from "./config/index.js";
import { providerVariable } from "./config/providers.js";
import type { CorsOrigins } from "./http/cors.js";
import { type CheckedOption, ConfigurationError, checkAppUrl, checkOptions, OPTION_VARIABLES, WHOLE_NUMBER_OPTIONS } from "./options.js";

/** The environment variables domain-auth reads (docs/web.md#configuration). */
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
  /** Days security events are kept before they are purged. */
  AUTH_EVENT_RETENTION?: string;
  /** Seconds after a sign-in during which a session may add a second factor or an API key without its password. */
  AUTH_REAUTH_WINDOW?: string;
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
  /** `AUTH_PROVIDER_<ID>_CLIENT_ID` and `_CLIENT_SECRET` of each provider `auth.providers` declares (docs/providers.md). */
  [providerVariable: `AUTH_PROVIDER_${string}`]: string | undefined;
}

/** A setting in the environment that cannot be used: the one {@link ConfigurationError} of options and settings alike. */
export const EnvironmentError = ConfigurationError;
/** A setting in the environment that cannot be used. */
export type EnvironmentError = ConfigurationError;

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
  /** `AUTH_EVENT_RETENTION`: security events older than this many days are purged. @default 90 */
  readonly eventRetentionDays: number;
  /**
   * `AUTH_REAUTH_WINDOW`: for this many seconds after a sign-in a session may add a second factor,
   * create an API key or link a provider without `currentPassword`; 0 asks for it every time. @default 600
   */
  readonly reauthWindowSeconds: number;
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

/** `SMTP_URL` must be an smtp:// or smtps:// URL; its password is never repeated in the message. */
function smtpUrlOf(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(raw).protocol;
  } catch {}
  if (protocol !== "smtp:" && protocol !== "smtps:")
    throw new ConfigurationError("SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587");
  return raw;
}

/** The variable that sets `option`, as the environment names it. */
function variableOf(option: CheckedOption): keyof AuthEnvironment {
  return OPTION_VARIABLES[option] as keyof AuthEnvironment;
}

/** The checked options as the environment gives them: unset or empty is absent (the default), numbers as numbers. */
function optionsInput(env: AuthEnvironment): Partial<Record<CheckedOption, unknown>> {
  const input: Partial<Record<CheckedOption, unknown>> = {
    secret: env.AUTH_SECRET,
    setupToken: env.SETUP_TOKEN,
    corsOrigins: env.CORS_ORIGINS,
  };
  for (const option of Object.keys(WHOLE_NUMBER_OPTIONS) as (keyof typeof WHOLE_NUMBER_OPTIONS)[]) {
    const variable = OPTION_VARIABLES[option];
    const raw = variable === undefined ? undefined : env[variable as keyof AuthEnvironment];
    if (raw !== undefined && raw !== "") input[option] = Number(raw);
  }
  return input;
}

/**
 * Reads and validates the environment's settings (docs/web.md#configuration); reads no file and opens nothing.
 *
 * @throws {ConfigurationError} with a one-line message naming the variable, on a value that cannot be used.
 */
export function readSettings(env: AuthEnvironment = process.env): AuthSettings {
  const production = env.NODE_ENV === "production";
  const options = checkOptions(optionsInput(env), {
    production,
    labelOf: variableOf,
    rawOf: (option) => env[variableOf(option)],
  });
  // What the hashing threads and their queue take are options of createAuth alone: no variable sets them.
  const { hashThreads: _threads, maxHashQueue: _queue, ...checked } = options;
  return {
    production,
    domainFile: env.DOMAIN_FILE || "domain.yaml",
    databaseUrl: env.DATABASE_URL || "file:.data/app.db",
    ...checked,
    // Present when unset too, as `undefined`.
    secret: checked.secret,
    setupToken: checked.setupToken,
    appUrl: checkAppUrl(env.APP_URL, "APP_URL"),
    smtpUrl: smtpUrlOf(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || undefined,
  };
}

/**
 * The client id and secret of each provider a domain declares, from `AUTH_PROVIDER_<ID>_CLIENT_ID`
 * and `AUTH_PROVIDER_<ID>_CLIENT_SECRET` (docs/providers.md).
 *
 * @throws {ConfigurationError} naming the first variable that is missing or empty.
 */
export function providerCredentialsFromEnv(
  env: AuthEnvironment,
  providers: readonly ProviderModel[],
): Record<string, { clientId: string; clientSecret: string }> {
  return Object.fromEntries(
    providers.map((provider) => {
      const [clientId, clientSecret] = (["CLIENT_ID", "CLIENT_SECRET"] as const).map((part) => {
        const variable = providerVariable(provider.id, part);
        const value = env[variable as `AUTH_PROVIDER_${string}`];
        if (!value) throw new ConfigurationError(`${variable} must be set: domain.yaml declares the provider ${provider.id}`);
        return value;
      });
      return [provider.id, { clientId: clientId as string, clientSecret: clientSecret as string }];
    }),
  );
}
