import type { AuthModel, DomainModel } from "./config/index.js";
import type { PasswordHasher } from "./password/hasher.js";
import type { SessionService } from "./sessions/sessions.js";
import type { Database } from "./store/database.js";
import type { RecordStore } from "./store/record-store.js";
import type { LoginThrottle } from "./throttle/login-throttle.js";
import type { RegisterThrottle } from "./throttle/register-throttle.js";
import type { SetupTokenCheck } from "./tokens/setup-token.js";
import type { TokenService } from "./tokens/tokens.js";

/** What the auth routes need besides the model: present only with `auth.type: jwt`. */
export interface AuthServices {
  readonly auth: AuthModel;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly throttle: LoginThrottle;
  /** Checks `POST setup`'s `setupToken`; `null` when setup is open to anyone (no `setupToken` option). */
  readonly setupToken: SetupTokenCheck | null;
  readonly registerThrottle: RegisterThrottle;
  readonly sessions: SessionService;
}

/** Everything a route handler works with. */
export interface RouteContext {
  readonly model: DomainModel;
  readonly database: Database;
  readonly store: RecordStore;
  /** `null` under `auth.type: none`. */
  readonly services: AuthServices | null;
  /** The client's address, for per-address throttling. */
  clientAddress(request: Request): string;
}
