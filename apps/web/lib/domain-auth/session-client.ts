import { apiPaths, type SignedIn } from "@domain-auth/core/policy";
import { type ApiResult, type CallOptions, type FetchLike, requestApi } from "./api-request";
import type { AuthView } from "./domain-view";
import type { UserProfile } from "./profile";
import { REFRESH_LOCK, type SessionChannel, type SessionLocks, tabLocks } from "./session-sync";

export type { ApiFailure, ApiResult, CallOptions } from "./api-request";

/** The longest a token is renewed ahead of its expiry; shorter tokens are renewed at three quarters of their life. */
const MAX_LEAD_MS = 60_000;
/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What a tab knows of the browser's session. The tokens themselves are HttpOnly cookies that no
 * script reads: the tab knows who signed in (the answer of the sign-in, or the server's render) and
 * when the access token is due for renewal.
 */
export type SessionState =
  | {
      readonly status: "signed-in";
      readonly user: UserProfile;
      /** When to renew the access token ahead of its expiry (ms since the epoch); `null` when not known. */
      readonly renewAt: number | null;
    }
  | {
      readonly status: "signed-out";
      /** The server ended the session (revoked or expired), rather than the user signing out. */
      readonly expired: boolean;
    };

/** Nobody signed in. */
export const SIGNED_OUT: SessionState = { status: "signed-out", expired: false };

/**
 * What a cookie sign-in, setup, password reset or refresh answers (docs/api.md#cookie-sessions): the
 * core's signed-in answer without the tokens (they are cookies), the user as a page holds it.
 */
export type SignedInAnswer = Pick<SignedIn, "expiresIn" | "refreshExpiresIn"> & { readonly user: UserProfile };

/**
 * What an own password or email change answers with the cookie (docs/api.md#cookie-sessions): the
 * changed record, and the lifetimes of the session's fresh cookies (none when nothing changed: the
 * email sent was the one the user has).
 */
export type CredentialsChanged = Partial<Pick<SignedInAnswer, "expiresIn" | "refreshExpiresIn">> & { readonly item: UserProfile };

/** What refreshing needs of the `auth` block. */
export type RefreshingAuth = Pick<AuthView, "segment" | "endpoints">;

/** The time as the client sees it: the current instant and a way to run something later. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` after `delayMs`; the returned function cancels it. */
  schedule(callback: () => void, delayMs: number): () => void;
}

/** What a {@link SessionClient} works with. */
export interface SessionClientOptions {
  readonly clock: Clock;
  readonly fetch: FetchLike;
  /** Serializes refreshes across the browser's tabs (`navigator.locks`). @default locks of this client alone */
  readonly locks?: SessionLocks;
  /** Tells the browser's other tabs of each change of the session, and hears theirs. @default none */
  readonly channel?: SessionChannel<SessionState>;
  /** Removes the session cookies where the domain has no `logout` (the app's server action). @default nothing */
  readonly forget?: () => Promise<void>;
}

/** When to renew a token issued at `issuedAt` that expires at `expiresAt` (ms): a quarter of its life ahead, at most a minute. */
export function renewalTime(issuedAt: number, expiresAt: number): number {
  return expiresAt - Math.min(MAX_LEAD_MS, Math.max(0, expiresAt - issuedAt) / 4);
}

/** The state a cookie sign-in or refresh answered at `now` leaves the tab in. */
export function signedInState(answer: SignedInAnswer, now: number): SessionState {
  return { status: "signed-in", user: answer.user, renewAt: renewalTime(now, now + answer.expiresIn * 1000) };
}

type RefreshOutcome = "refreshed" | "refused" | "unavailable";

/**
 * A tab's side of the cookie session: who is signed in (for the pages to show), the API calls (a
 * call refused 401 while signed in refreshes the session once and is sent again), the renewal ahead
 * of the access token's expiry, and signing out. Refreshes run under one lock for all the browser's
 * tabs, and each change is told to the other tabs. One per tab (`sessionClient()`); tests create
 * their own with a fake clock, `fetch`, locks and channel.
 */
export class SessionClient {
  readonly #clock: Clock;
  readonly #fetch: FetchLike;
  readonly #locks: SessionLocks;
  readonly #channel: SessionChannel<SessionState> | undefined;
  readonly #forget: () => Promise<void>;
  readonly #listeners = new Set<() => void>();
  /** `null` until the page that opened the tab told what the server saw ({@link seed}). */
  #state: SessionState | null = null;
  /** Where a 401 may be answered with one refresh: set while {@link keepAlive} runs. */
  #renewing: RefreshingAuth | null = null;

  constructor(options: SessionClientOptions) {
    this.#clock = options.clock;
    this.#fetch = options.fetch;
    this.#locks = options.locks ?? tabLocks();
    this.#channel = options.channel;
    this.#forget = options.forget ?? (() => Promise.resolve());
    this.#channel?.listen((state) => this.#set(state));
  }

  /** The tab's session; `null` until {@link seed}ed. */
  readonly snapshot = (): SessionState | null => this.#state;

  /** Calls `listener` whenever the session changes; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #set(state: SessionState): void {
    this.#state = state;
    for (const listener of [...this.#listeners]) listener();
  }

  /** Sets the session and tells the other tabs. */
  #publish(state: SessionState): void {
    this.#set(state);
    this.#channel?.post(state);
  }

  /** The session as the server rendered the tab's first page; ignored once the tab knows better. */
  seed(state: SessionState): void {
    if (this.#state === null) this.#set(state);
  }

  /** Keeps the answer of a cookie sign-in (login, setup, password reset), and tells the other tabs. */
  signedIn(answer: SignedInAnswer): void {
    this.#publish(signedInState(answer, this.#clock.now()));
  }

  /**
   * Keeps the user's record as a change of their own fields answered it (`PATCH /api/<auth>/<id>`
   * without a credential), and tells the other tabs; the session itself is as it was.
   */
  userChanged(user: UserProfile): void {
    const state = this.#state;
    if (state?.status !== "signed-in" || state.user.id !== user.id) return;
    this.#publish({ ...state, user });
  }

  /**
   * An own password or email change (`PATCH` of the user at `path`, with `currentPassword`): the
   * answer sets fresh session cookies, the old ones retired with every other session of the user, and
   * the tab (and every other one) takes the changed user. Held under the refresh lock, as
   * {@link signOut} is: no renewal with the refresh token it replaces is under way meanwhile. A refused
   * session (an expired access token) is refreshed once, where {@link keepAlive} allows it, and the
   * change sent again; a session that cannot be refreshed is over, as with {@link call}.
   */
  changeCredentials(path: string, body: Readonly<Record<string, unknown>>): Promise<ApiResult<CredentialsChanged>> {
    return this.#locks.request(REFRESH_LOCK, async () => {
      const send = () => this.request<CredentialsChanged>(path, { method: "PATCH", body });
      let result = await send();
      const auth = this.#renewing;
      if (auth && this.#isRefusedSession(result)) {
        const outcome = await this.#refresh(auth);
        if (outcome === "refreshed") result = await send();
        else if (outcome === "refused") this.#publish({ status: "signed-out", expired: true });
      }
      if (!result.ok) return result;
      const { item, expiresIn, refreshExpiresIn = 0 } = result.data;
      if (expiresIn === undefined) this.userChanged(item);
      else this.#publish(signedInState({ user: item, expiresIn, refreshExpiresIn }, this.#clock.now()));
      return result;
    });
  }

  /** One request to the API, as it is: no renewal of a refused session. */
  request<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
    return requestApi<T>(this.#fetch, path, options);
  }

  /**
   * Calls the domain-auth API at `path`, one of the core's API paths. When the call is refused 401
   * `UNAUTHENTICATED` while the tab is signed in and {@link keepAlive} runs, the session is renewed
   * once, under the refresh lock: first the call is sent again (another tab may have refreshed
   * while this one waited), then the session is refreshed and the call sent once more. A call with
   * its own `bearer` token is not the session's: its 401 is the answer.
   */
  async call<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
    const send = () => this.request<T>(path, options);
    const first = await send();
    const auth = this.#renewing;
    if (!auth || options.bearer !== undefined || !this.#isRefusedSession(first)) return first;
    return this.#locks.request(REFRESH_LOCK, async () => {
      const again = await send();
      if (!this.#isRefusedSession(again)) return again;
      const outcome = await this.#refresh(auth);
      if (outcome === "unavailable") return again;
      const retried = await send();
      // Refused, and still refused with whatever cookies a refresh of another tab may have set: over.
      if (outcome === "refused" && this.#isRefusedSession(retried)) this.#publish({ status: "signed-out", expired: true });
      return retried;
    });
  }

  #isRefusedSession(result: ApiResult<unknown>): boolean {
    return !result.ok && result.status === 401 && result.error.code === "UNAUTHENTICATED" && this.#state?.status === "signed-in";
  }

  /** `POST refresh {transport: "cookie"}`: the browser takes the new cookies, the tab the user and lifetime. */
  async #refresh(auth: RefreshingAuth): Promise<RefreshOutcome> {
    const result = await this.request<SignedInAnswer>(apiPaths(auth).refresh, { method: "POST", body: { transport: "cookie" } });
    if (result.ok) {
      this.#publish(signedInState(result.data, this.#clock.now()));
      return "refreshed";
    }
    // A network failure or a 503 is no verdict on the session.
    return result.status === 401 || result.status === 400 ? "refused" : "unavailable";
  }

  /** The renewal due at `due`, unless another tab renewed the session while this one waited for the lock. */
  #renewOnTime(auth: RefreshingAuth, due: number): Promise<void> {
    return this.#locks.request(REFRESH_LOCK, async () => {
      const state = this.#state;
      if (state?.status !== "signed-in" || state.renewAt !== due) return;
      // A refusal here may be a race with a tab that has no lock to share; the next call decides.
      await this.#refresh(auth);
    });
  }

  /**
   * Keeps the session alive, where the domain has `refresh`: renews the access token shortly before
   * it expires (a quarter of its lifetime ahead, at most a minute), again after each renewal, and
   * lets {@link call} renew it once after a 401. Returns the function that stops it.
   */
  keepAlive(auth: RefreshingAuth): () => void {
    if (!auth.endpoints.refresh) return () => {};
    this.#renewing = auth;
    let cancelTimer = () => {};
    let scheduledFor: number | null = null;
    const schedule = () => {
      const renewAt = this.#state?.status === "signed-in" ? this.#state.renewAt : null;
      if (renewAt === scheduledFor) return;
      cancelTimer();
      cancelTimer = () => {};
      scheduledFor = renewAt;
      if (renewAt === null) return;
      const delay = Math.min(MAX_TIMER_MS, Math.max(0, renewAt - this.#clock.now()));
      cancelTimer = this.#clock.schedule(() => void this.#renewOnTime(auth, renewAt), delay);
    };
    const unsubscribe = this.subscribe(schedule);
    schedule();
    return () => {
      unsubscribe();
      cancelTimer();
      if (this.#renewing === auth) this.#renewing = null;
    };
  }

  /**
   * Signs the browser out: `POST /api/<auth>/logout` revokes the session on every instance and
   * clears its cookies (without `logout`, the cookies are only removed), then every tab shows it.
   * Held under the refresh lock, so no renewal of this session is under way meanwhile.
   */
  signOut(auth: RefreshingAuth): Promise<void> {
    return this.#locks.request(REFRESH_LOCK, async () => {
      if (auth.endpoints.logout) await this.request(apiPaths(auth).logout, { method: "POST" });
      else await this.#forget().catch(() => undefined);
      this.#publish({ status: "signed-out", expired: false });
    });
  }
}
