import type { ApiKeys } from "./api-keys/api-keys.js";
import type { AuthModel, DomainModel } from "./config/index.js";
import type { EndpointFlag } from "./config/vocabulary.js";
import type { CookieTransport } from "./cookies/cookie-transport.js";
import type { EventLog } from "./events/event-log.js";
import type { ApiRequest } from "./http/api-request.js";
import type { AccountTokenStore } from "./mail/account-tokens.js";
import type { MailService } from "./mail/mail-service.js";
import type { Passkeys } from "./mfa/passkeys.js";
import type { SecondFactors } from "./mfa/second-factors.js";
import type { Organizations } from "./organizations/organizations.js";
import type { PasswordHasher } from "./password/hasher.js";
import type { ProviderService } from "./providers/provider-service.js";
import type { SessionService } from "./sessions/sessions.js";
import type { Database } from "./store/database.js";
import type { RecordStore } from "./store/record-store.js";
import type { AddressThrottle } from "./throttle/address-throttle.js";
import type { LoginThrottle } from "./throttle/login-throttle.js";
import type { MailThrottle } from "./throttle/mail-throttle.js";
import type { RegisterThrottle } from "./throttle/register-throttle.js";
import type { SetupTokenCheck } from "./tokens/setup-token.js";
import type { TokenService } from "./tokens/tokens.js";

/** What the auth routes need besides the model: present only with `auth.type: jwt`. */
export interface AuthServices {
  readonly auth: AuthModel;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  /** The session cookies and their same-origin check (docs/api.md#cookie-sessions). */
  readonly cookies: CookieTransport;
  readonly throttle: LoginThrottle;
  /** Checks `POST setup`'s `setupToken`; `null` when setup is open to anyone (no `setupToken` option). */
  readonly setupToken: SetupTokenCheck | null;
  readonly registerThrottle: RegisterThrottle;
  /** Counts `login/passkey/options` calls by client address (30 a minute). */
  readonly passkeyOptionsThrottle: AddressThrottle;
  readonly sessions: SessionService;
  /**
   * The endpoints that exist: the model's flags, the e-mail ones (`passwordReset`, `verifyEmail`)
   * only when e-mail can be sent, and `totp`, `passkeys`, `mfa` (`auth.mfa`) for those of second factors.
   */
  readonly endpoints: Readonly<Record<EndpointFlag, boolean>>;
  /** Second factors: TOTP, recovery codes and the mfa tokens of a sign-in's second step (docs/mfa.md). */
  readonly mfa: SecondFactors;
  /** Passkeys: their registration, sign-ins and challenges (docs/mfa.md). */
  readonly passkeys: Passkeys;
  /** Sends reset, verification and invitation links; `null` when this instance sends no e-mail. */
  readonly mail: MailService | null;
  readonly accountTokens: AccountTokenStore;
  readonly forgotPasswordThrottle: MailThrottle;
  readonly resendVerificationThrottle: MailThrottle;
  /** The security event log (docs/events.md). */
  readonly events: EventLog;
  /** API keys: issuing, checking and noting their uses (docs/api-keys.md). */
  readonly apiKeys: ApiKeys;
  /** Sign-in with providers: their clients, identities and flows (docs/providers.md). */
  readonly providers: ProviderService;
  /** Organizations (docs/organizations.md): `null` without `auth.organizations`. */
  readonly organizations: Organizations | null;
  /** Count provider sign-ins' starts and callbacks by client address (30 a minute each). */
  readonly providerThrottles: { readonly start: AddressThrottle; readonly callback: AddressThrottle };
}

/** Everything a route handler works with. */
export interface RouteContext {
  readonly model: DomainModel;
  readonly database: Database;
  readonly store: RecordStore;
  /** `null` under `auth.type: none`. */
  readonly services: AuthServices | null;
  /** The client's address, for per-address throttling. */
  clientAddress(request: ApiRequest): string;
}
