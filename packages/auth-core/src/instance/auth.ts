import type { ApiKeys } from "../api-keys/api-keys.js";
import type { DomainModel } from "../config/index.js";
import type { EndpointFlag } from "../config/vocabulary.js";
import type { EventListener, EventLog } from "../events/event-log.js";
import type { ApiRequest } from "../http/api-request.js";
import type { CorsOrigins } from "../http/cors.js";
import type { Reply } from "../http/responses.js";
import type { MailOptions } from "../mail/mail-service.js";
import type { SecondFactors } from "../mfa/second-factors.js";
import type { BcryptChoice } from "../password/bcrypt-library.js";
import type { PasswordHasher } from "../password/hasher.js";
import type { ProviderCredentials } from "../providers/provider-client.js";
import type { SessionService } from "../sessions/sessions.js";
import type { Database } from "../store/database.js";
import type { RecordStore } from "../store/record-store.js";
import type { PageSessions } from "./page-sessions.js";

/** Options of `createAuth`. */
export interface CreateAuthOptions {
  /**
   * The domain: the path of its `domain.yaml` (read and validated, or a `DomainConfigError` naming
   * each problem's `file:line:col`), or a model already resolved (`loadDomain` from
   * `@domain-auth/core/config`).
   */
  domain: string | DomainModel;
  /** A database URL (`file:…` or `postgres://…`) or an open {@link Database}, which `close()` then leaves open. */
  database: string | Database;
  /** The HMAC secret, at least 32 bytes; required with `auth.type: jwt`. */
  secret?: string;
  /** Token lifetime in seconds. @default 3600 */
  tokenTtlSeconds?: number;
  /** A refresh token's lifetime in seconds, counted from the session's last refresh (sliding). @default 2592000 (30 days) */
  refreshTtlSeconds?: number;
  /** No session outlives this many seconds from its sign-in, however often it is refreshed. @default 7776000 (90 days) */
  sessionMaxAgeSeconds?: number;
  /** The clock of tokens and sessions, in milliseconds (tests move it). @default Date.now */
  now?: () => number;
  /** bcrypt cost. @default 10 */
  bcryptCost?: number;
  /**
   * The bcrypt implementation: `auto` runs the native `bcrypt` when it loads on this platform and
   * `bcryptjs` otherwise; `bcrypt` refuses to start without the native one; `bcryptjs` never tries it.
   * @default the AUTH_BCRYPT_LIBRARY environment variable, else `auto`
   */
  bcryptLibrary?: BcryptChoice;
  /** Password hashing threads. @default the number of cores */
  hashThreads?: number;
  /**
   * Hashes and comparisons that may wait while every hashing thread is busy. When the queue is
   * full, register, login, setup, password changes and user creation answer 503 `UNAVAILABLE`
   * with `Retry-After` at once; requests that need no hash are not affected.
   * @default 8 × hashThreads
   */
  maxHashQueue?: number;
  /**
   * Registrations per client address per hour; past it, register answers 429 `TOO_MANY_ATTEMPTS`
   * with `Retry-After`. Counted in the database, so it holds across instances.
   * @default 100
   */
  registerLimit?: number;
  /** Proxy hops to trust in `X-Forwarded-For`. @default 0 */
  trustProxy?: number;
  /** Overrides how the client address is found (for per-address throttling). */
  clientAddress?: (request: ApiRequest) => string;
  /**
   * A secret that `POST setup` must carry as `setupToken` (compared in constant time), so only
   * whoever knows it can become the first administrator; at least 16 bytes. An empty string, like
   * `undefined`, leaves setup open to the first caller.
   * @default undefined
   */
  setupToken?: string;
  /**
   * The origins a browser may call the API from (docs/api.md#cors): exact origins such as
   * `https://app.example.com`, or `"*"` for any. Their preflights are answered before routing and
   * every response to them carries `Access-Control-Allow-Origin`; credentials are never allowed.
   * @default none: same origin only, and `OPTIONS` is 405 like any method a path does not answer
   */
  corsOrigins?: CorsOrigins;
  /**
   * The app's public origin (`APP_URL`), such as `https://app.example.com`. Cookie sessions
   * (docs/api.md#cookie-sessions) must come from it, and over https their cookies are `Secure` with `__Host-` names.
   * @default none: a cookie request's own `Host` is the app's origin, and cookies are not `Secure`
   */
  appUrl?: string;
  /**
   * Receives unexpected errors (answered with 500), and what fails after an answer: an `onEvent`
   * that threw, a refused attempt's event that could not be written. @default console.error
   */
  onError?: (error: unknown) => void;
  /**
   * Security events older than this many days are purged (docs/events.md), in bounded batches at most
   * once a minute. @default 90
   */
  eventRetentionDays?: number;
  /**
   * Seconds after a sign-in (a password, a passkey, a reset link) during which its session may add a
   * second factor, create an API key or link a provider without sending `currentPassword`; the
   * moment is the session's start and a refresh does not renew it. 0 asks for the password every time.
   * @default 600
   */
  reauthWindowSeconds?: number;
  /**
   * Hears of every security event once it is committed (docs/events.md): after the transaction of the
   * change it records, or, for a refused attempt, once the answer is on its way; on a later turn of
   * the event loop, so it never delays an answer. What it returns is not awaited by any request;
   * when it throws or rejects, the error goes to `onError`.
   * @example createAuth({ ...options, onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`) })
   */
  onEvent?: EventListener;
  /**
   * E-mail (docs/mail.md): the mailer and the web app's public origin its links point at. Without
   * it no e-mail is sent: forgot and reset password and the verification endpoints are 404,
   * invitations need a password, and `auth.verifyEmail: true` is refused.
   * @default undefined
   */
  mail?: MailOptions;
  /**
   * The client id and secret of each provider `auth.providers` declares (docs/providers.md), by its
   * id; every declared provider needs both. `createAuthFromEnv` reads them from
   * `AUTH_PROVIDER_<ID>_CLIENT_ID` and `AUTH_PROVIDER_<ID>_CLIENT_SECRET`.
   * @default {}
   */
  providers?: Readonly<Record<string, ProviderCredentials>>;
}

/** What {@link Auth.tools} holds. */
export interface AuthTools {
  readonly store: RecordStore;
  readonly hasher: PasswordHasher | null;
  readonly sessions: SessionService | null;
  readonly mfa: SecondFactors | null;
  readonly events: EventLog | null;
  readonly apiKeys: ApiKeys | null;
}

/** A running domain-auth instance. */
export interface Auth extends PageSessions {
  readonly model: DomainModel;
  /** Answers one `/api/*` request. Never throws; never answers with a stack trace. */
  handle(request: Request): Promise<Response>;
  /**
   * The same pipeline as {@link Auth.handle}, for adapters that write to a socket themselves: a
   * request read as an {@link ApiRequest} (a Web `Request` is one) answered with a plain
   * {@link Reply} (status, headers, JSON text). `createNodeListener(auth)` serves it on node:http.
   */
  answer(request: ApiRequest): Promise<Reply>;
  /** `true` until the first user exists. */
  isSetupRequired(): Promise<boolean>;
  /** `true` when `POST setup` needs a `setupToken` (created with the `setupToken` option, under `auth.type: jwt`). */
  readonly setupTokenRequired: boolean;
  /**
   * The services beneath this instance, for tools such as the `admin` command and tests: the record
   * store and, under `auth.type: jwt`, the password hasher, sessions, second factors, security event
   * log and API keys (`null` under `auth.type: none`). Not the API an application calls: use the
   * endpoints, `currentUser` and `can`.
   */
  readonly tools: AuthTools;
  /**
   * The auth endpoints that exist (`null` under `auth.type: none`): the model's flags, the
   * e-mail ones (`passwordReset`, `verifyEmail`) only when this instance sends e-mail, and `totp`
   * for the TOTP endpoints (`auth.mfa.totp`). Pages ask this, not the model.
   */
  readonly endpoints: Readonly<Record<EndpointFlag, boolean>> | null;
  /** Waits for the e-mails, the events and the API key uses under way (at most 5 seconds each), then closes the database. */
  close(): Promise<void>;
}
