import { clientAddressOf, PEER_ADDRESS_HEADER, UNKNOWN_ADDRESS } from "./client-address.js";
import { type DomainModel, ENDPOINTS, type Endpoint, MAIL_ENDPOINTS } from "./config/index.js";
import type { AuthServices, RouteContext } from "./context.js";
import { OPENAPI_PATH } from "./http/api-paths.js";
import { type ApiRequest, pathOf, withMethod } from "./http/api-request.js";
import { type CorsOrigins, createCorsPolicy } from "./http/cors.js";
import { ApiError } from "./http/errors.js";
import { errorResponse, type Reply, toResponse } from "./http/responses.js";
import { AccountTokenStore } from "./mail/account-tokens.js";
import { type MailOptions, MailService } from "./mail/mail-service.js";
import { openApiDocument } from "./openapi/document.js";
import { ConfigurationError, checkOptions } from "./options.js";
import { createPasswordHasher, HashQueueFullError, type PasswordHasher } from "./password/hasher.js";
import { allowedMethods, createRouteMatcher, createRouter } from "./router.js";
import { openApiRoute } from "./routes/openapi.js";
import { SessionStore } from "./sessions/session-store.js";
import { SessionService } from "./sessions/sessions.js";
import { type Database, openDatabase } from "./store/database.js";
import { isUnavailableError } from "./store/errors.js";
import { migrate } from "./store/migrate.js";
import { RecordStore } from "./store/record-store.js";
import { createLoginThrottle } from "./throttle/login-throttle.js";
import { createMailThrottle } from "./throttle/mail-throttle.js";
import { createRegisterThrottle } from "./throttle/register-throttle.js";
import { createSetupTokenCheck } from "./tokens/setup-token.js";
import { createTokenService, MIN_SECRET_BYTES } from "./tokens/tokens.js";

/** Finds a request's client address, saying once per instance when one arrives without a recorded address. */
function addressFinder(trustProxy: number): (request: ApiRequest) => string {
  let warned = false;
  return (request) => {
    const address = clientAddressOf(request, trustProxy);
    if (address === UNKNOWN_ADDRESS && !warned) {
      warned = true;
      console.warn(
        `domain-auth: a request came without a recorded client address (${PEER_ADDRESS_HEADER}), so such callers share one login-throttling bucket; serve the app through server.mjs or createNodeListener, or set TRUST_PROXY behind a proxy`,
      );
    }
    return address;
  };
}

function isMailEndpoint(endpoint: Endpoint): boolean {
  return (MAIL_ENDPOINTS as readonly Endpoint[]).includes(endpoint);
}

/** Options of {@link createAuth}. */
export interface CreateAuthOptions {
  /** The resolved domain (see `loadDomain`). */
  domain: DomainModel;
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
   * The origins a browser may call the API from (CONTRACT §12): exact origins such as
   * `https://app.example.com`, or `"*"` for any. Their preflights are answered before routing and
   * every response to them carries `Access-Control-Allow-Origin`; credentials are never allowed.
   * @default none: same origin only, and `OPTIONS` is 405 like any method a path does not answer
   */
  corsOrigins?: CorsOrigins;
  /** Receives unexpected errors (answered with 500). @default console.error */
  onError?: (error: unknown) => void;
  /**
   * E-mail (CONTRACT 11): the mailer and the web app's public origin its links point at. Without
   * it no e-mail is sent: forgot and reset password and the verification endpoints are 404,
   * invitations need a password, and `auth.verifyEmail: true` is refused.
   * @default undefined
   */
  mail?: MailOptions;
}

/** A running domain-auth instance. */
export interface Auth {
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
  /** The record store, for tools such as the `admin` command. */
  readonly store: RecordStore;
  /** The password hasher of this instance (`null` under `auth.type: none`). */
  readonly hasher: PasswordHasher | null;
  /** The sessions of this instance, for tools such as the `admin` command (`null` under `auth.type: none`). */
  readonly sessions: SessionService | null;
  /**
   * The auth endpoints that exist (`null` under `auth.type: none`): the model's flags, and the
   * e-mail ones (`passwordReset`, `verifyEmail`) only when this instance sends e-mail. Pages ask
   * this, not the model.
   */
  readonly endpoints: Readonly<Record<Endpoint, boolean>> | null;
  /** Waits for the e-mails under way (at most 5 seconds), then closes the database. */
  close(): Promise<void>;
}

/**
 * Creates an instance: opens the database, brings its schema up to date and returns the
 * Web-standard handler.
 *
 * @example
 * const auth = await createAuth({ domain: await loadDomain("domain.yaml"), database: "file:.data/app.db", secret });
 * const response = await auth.handle(new Request("http://localhost/api/user/setup"));
 */
export async function createAuth(options: CreateAuthOptions): Promise<Auth> {
  const model = options.domain;
  const checked = checkOptions(options);
  if (model.auth && checked.secret === undefined)
    throw new ConfigurationError(`a secret of at least ${MIN_SECRET_BYTES} bytes is required with auth.type jwt`);
  if (model.auth?.verifyEmail && !options.mail)
    throw new ConfigurationError("auth.verifyEmail is true but no e-mail is configured: users could never confirm their address");
  const setupToken = checked.setupToken ? createSetupTokenCheck(checked.setupToken) : null;
  const registerLimit = checked.registerLimit;
  const cors = checked.corsOrigins && createCorsPolicy(checked.corsOrigins);
  const database = typeof options.database === "string" ? await openDatabase(options.database) : options.database;
  await migrate(database, model);

  const now = options.now ?? Date.now;
  let services: AuthServices | null = null;
  if (model.auth) {
    const auth = model.auth;
    const accountTokens = new AccountTokenStore(database);
    const endpoints = Object.fromEntries(
      ENDPOINTS.map((endpoint) => [endpoint, auth.endpoints[endpoint] && (options.mail !== undefined || !isMailEndpoint(endpoint))]),
    ) as Record<Endpoint, boolean>;
    services = {
      auth: model.auth,
      hasher: createPasswordHasher({
        cost: checked.bcryptCost,
        ...(checked.hashThreads !== undefined ? { threads: checked.hashThreads } : {}),
        ...(checked.maxHashQueue !== undefined ? { maxQueue: checked.maxHashQueue } : {}),
      }),
      tokens: createTokenService({
        secret: checked.secret as string,
        issuer: model.name,
        ttlSeconds: checked.tokenTtlSeconds,
        now,
      }),
      throttle: createLoginThrottle(database),
      setupToken,
      registerThrottle: createRegisterThrottle(database, { limit: registerLimit }),
      sessions: new SessionService(
        new SessionStore(database),
        {
          refreshTtlSeconds: checked.refreshTtlSeconds,
          maxAgeSeconds: checked.sessionMaxAgeSeconds,
        },
        now,
      ),
      endpoints,
      accountTokens,
      mail: options.mail ? new MailService(options.mail, accountTokens, model.name, now) : null,
      forgotPasswordThrottle: createMailThrottle(database, "forgot-password"),
      resendVerificationThrottle: createMailThrottle(database, "resend-verification"),
    };
  }
  const store = new RecordStore(database);
  const trustProxy = checked.trustProxy;
  const context: RouteContext = {
    model,
    database,
    store,
    services,
    clientAddress: options.clientAddress ?? addressFinder(trustProxy),
  };
  // The OpenAPI document is built once, from the model and the endpoints served, and served as it is.
  const document = openApiDocument(model, { endpoints: services?.endpoints ?? null });
  const match = createRouteMatcher(context, { [OPENAPI_PATH]: { GET: openApiRoute(document) } });
  const route = createRouter(match);
  const onError = options.onError ?? ((error: unknown) => console.error("domain-auth: unexpected error", error));

  const answer = async (request: ApiRequest): Promise<Reply> => {
    try {
      return await route(request);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      if (isUnavailableError(error)) return errorResponse(new ApiError("UNAVAILABLE", { cause: error }));
      // A full hash queue drains in about one hashing time per queued task and thread: come back shortly.
      if (error instanceof HashQueueFullError)
        return errorResponse(new ApiError("UNAVAILABLE", { headers: { "retry-after": "1" }, cause: error }));
      onError(error);
      return errorResponse(new ApiError("INTERNAL_ERROR", { cause: error }));
    }
  };

  // Plain functions where they only pass a promise on: each async layer costs a request microtasks.
  const answerWithHead = (request: ApiRequest): Promise<Reply> => {
    if (request.method.toUpperCase() !== "HEAD") return answer(request);
    // HEAD, in this one place: answered as GET would be, without the body.
    return answer(withMethod(request, "GET")).then((reply) => ({ ...reply, body: null }));
  };
  /** The answer as the handlers made it, CORS included. */
  const reply = !cors
    ? answerWithHead
    : async (request: ApiRequest): Promise<Reply> => {
        const handlers = match(pathOf(request.url));
        const preflight = cors.preflight(request, handlers && allowedMethods(handlers));
        return preflight ?? cors.decorate(request, await answerWithHead(request));
      };
  const handle = async (request: Request): Promise<Response> => toResponse(await reply(request));

  return {
    model,
    store,
    hasher: services?.hasher ?? null,
    sessions: services?.sessions ?? null,
    endpoints: services?.endpoints ?? null,
    setupTokenRequired: services?.setupToken != null,
    handle,
    answer: reply,
    async isSetupRequired() {
      return !(await store.isSetupComplete());
    },
    async close() {
      await services?.mail?.close();
      await services?.hasher.close();
      if (typeof options.database === "string") await database.close();
    },
  };
}
