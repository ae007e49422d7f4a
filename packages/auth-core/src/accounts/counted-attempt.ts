import type { AuthServices, RouteContext } from "../context.js";
import type { EventDetail } from "../events/event-types.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { requestEvents } from "./security-events.js";

/**
 * One attempt at an account's secrets (a password, a second-factor code), counted by the login
 * throttle (docs/api.md#login) before anything is compared, so a burst of simultaneous guesses gets no
 * more comparisons than the limit. Until it is settled it stays counted as a failure.
 */
export interface CountedAttempt {
  /** Runs a comparison; when it throws (the hashing service was unavailable, say) the attempt is given back: it was no guess. */
  compare<T>(check: () => Promise<T>): Promise<T>;
  /** A sign-in completed: the email's count starts again and the address's attempt is given back. */
  succeed(): Promise<void>;
  /**
   * A right answer that completes nothing yet (a password with a second factor to come): the attempt
   * is given back but the email's count is kept, so entering the password again never wipes out
   * wrong codes.
   */
  giveBack(): Promise<void>;
  /**
   * A wrong answer: it stays counted, and its event (`login.failed` for a password, `mfa.failed`
   * for a code) is recorded once the answer is on its way.
   */
  fail(type: "login.failed" | "mfa.failed", detail?: EventDetail): void;
}

/** Whose secret an attempt is at: the user, when the email has one. */
export interface AttemptOptions {
  readonly userId?: string | null;
}

/**
 * Counts an attempt for a normalized email and the request's client address. The attempt that
 * locks them records a `login.locked` event after its answer.
 *
 * @throws {ApiError} `TOO_MANY_ATTEMPTS` with `Retry-After` while the email or the address is locked.
 */
export async function countAttempt(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  email: string,
  options: AttemptOptions = {},
): Promise<CountedAttempt> {
  const address = context.clientAddress(request);
  const events = requestEvents(context, services, request);
  const about = { userId: options.userId ?? null, email };
  const lock = await services.throttle.countAttempt(email, address);
  if (lock !== null) {
    if (lock.started) events.later({ type: "login.locked", ...about, detail: { retryAfter: lock.retryAfter } });
    throw new ApiError("TOO_MANY_ATTEMPTS", { headers: { "retry-after": String(lock.retryAfter) } });
  }
  const giveBack = () => services.throttle.withdrawAttempt(email, address);
  return {
    async compare(check) {
      try {
        return await check();
      } catch (error) {
        await giveBack().catch(() => {});
        throw error;
      }
    },
    succeed: () => services.throttle.recordSuccess(email, address),
    giveBack,
    fail: (type, detail) => events.later({ type, ...about, ...(detail ? { detail } : {}) }),
  };
}
