import { ApiKeyStore } from "../api-keys/api-key-store.js";
import { ApiKeys } from "../api-keys/api-keys.js";
import type { AuthModel, DomainModel } from "../config/index.js";
import { ENDPOINTS, type Endpoint, type EndpointFlag, MAIL_ENDPOINTS } from "../config/vocabulary.js";
import type { AuthServices } from "../context.js";
import { CookieTransport } from "../cookies/cookie-transport.js";
import { endpointFlagsOf } from "../endpoints/catalog.js";
import { EventLog } from "../events/event-log.js";
import { EventStore } from "../events/event-store.js";
import { AccountTokenStore } from "../mail/account-tokens.js";
import { type MailOptions, MailService } from "../mail/mail-service.js";
import { PasskeyStore } from "../mfa/passkey-store.js";
import { Passkeys } from "../mfa/passkeys.js";
import { SecondFactorStore } from "../mfa/second-factor-store.js";
import { SecondFactors } from "../mfa/second-factors.js";
import { createSecretBox } from "../mfa/secret-box.js";
import { createOrganizations } from "../organizations/organizations.js";
import { createPasswordHasher } from "../password/hasher.js";
import { ProviderService } from "../providers/provider-service.js";
import { SessionStore } from "../sessions/session-store.js";
import { SessionService } from "../sessions/sessions.js";
import type { Database } from "../store/database.js";
import { createLoginThrottle } from "../throttle/login-throttle.js";
import { createMailThrottle } from "../throttle/mail-throttle.js";
import { createPasskeyOptionsThrottle } from "../throttle/passkey-options-throttle.js";
import { createProviderFlowThrottle } from "../throttle/provider-flow-throttle.js";
import { createRegisterThrottle } from "../throttle/register-throttle.js";
import { createTokenService } from "../tokens/tokens.js";
import type { InstanceOptions } from "./resolve-options.js";

/**
 * The endpoints an instance serves: the model's flags, the e-mail ones only when it sends e-mail,
 * and those of each second factor `auth.mfa` turns on.
 */
export function servedEndpoints(auth: AuthModel, mail: MailOptions | undefined): Record<EndpointFlag, boolean> {
  const needsMail = (endpoint: Endpoint) => (MAIL_ENDPOINTS as readonly Endpoint[]).includes(endpoint);
  const flags = Object.fromEntries(
    ENDPOINTS.map((endpoint) => [endpoint, auth.endpoints[endpoint] && (mail !== undefined || !needsMail(endpoint))]),
  ) as Record<Endpoint, boolean>;
  return endpointFlagsOf({ endpoints: flags, mfa: auth.mfa, providers: auth.providers, organizations: auth.organizations });
}

/** What the auth routes work with, wired over one database (`auth.type: jwt` only). */
export function createServices(
  auth: AuthModel,
  database: Database,
  options: InstanceOptions & { readonly issuer: string; readonly model: DomainModel; readonly mail?: MailOptions },
): AuthServices {
  const { now, mail } = options;
  const accountTokens = new AccountTokenStore(database);
  return {
    auth,
    hasher: createPasswordHasher({
      cost: options.bcryptCost,
      ...(options.hashThreads !== undefined ? { threads: options.hashThreads } : {}),
      ...(options.maxHashQueue !== undefined ? { maxQueue: options.maxHashQueue } : {}),
      library: options.bcryptLibrary,
    }),
    tokens: createTokenService({ secret: options.secret as string, issuer: options.issuer, ttlSeconds: options.tokenTtlSeconds, now }),
    cookies: new CookieTransport(options.appUrl),
    throttle: createLoginThrottle(database),
    setupToken: options.setupTokenCheck,
    registerThrottle: createRegisterThrottle(database, { limit: options.registerLimit }),
    passkeyOptionsThrottle: createPasskeyOptionsThrottle(database),
    sessions: new SessionService(
      new SessionStore(database),
      {
        refreshTtlSeconds: options.refreshTtlSeconds,
        maxAgeSeconds: options.sessionMaxAgeSeconds,
        reauthWindowSeconds: options.reauthWindowSeconds,
      },
      now,
    ),
    endpoints: servedEndpoints(auth, mail),
    mfa: new SecondFactors(new SecondFactorStore(database), createSecretBox(options.secret as string), options.issuer, now),
    passkeys: new Passkeys(new PasskeyStore(database), options.issuer, options.appUrl, now),
    accountTokens,
    mail: mail ? new MailService(mail, accountTokens, options.issuer, now) : null,
    forgotPasswordThrottle: createMailThrottle(database, "forgot-password"),
    resendVerificationThrottle: createMailThrottle(database, "resend-verification"),
    events: new EventLog(new EventStore(database), {
      now,
      retentionDays: options.eventRetentionDays,
      onError: options.onError,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    }),
    apiKeys: new ApiKeys(new ApiKeyStore(database), now, options.onError),
    providers: new ProviderService(auth, database, options.providers, options.appUrl, options.onError),
    organizations: createOrganizations(options.model, auth, database),
    providerThrottles: { start: createProviderFlowThrottle(database, "start"), callback: createProviderFlowThrottle(database, "callback") },
  };
}
