import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import type { StoredUser } from "../store/rows.js";

/** A password to check for a normalized email, and the account it belongs to (`undefined` when none). */
export interface PasswordAttempt {
  readonly email: string;
  readonly password: string;
  readonly user: StoredUser | undefined;
}

/**
 * Checks a password under login throttling (CONTRACT 3.1): the attempt is counted as a failure
 * before the comparison and forgiven when the password is right, so a burst of simultaneous
 * guesses gets no more comparisons than the limit. Every path costs one comparison.
 *
 * @returns whether the password is the account's.
 * @throws {ApiError} `TOO_MANY_ATTEMPTS` with `Retry-After` while the email or the address is locked.
 */
export async function checkPassword(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  attempt: PasswordAttempt,
): Promise<boolean> {
  const address = context.clientAddress(request);
  const wait = await services.throttle.countAttempt(attempt.email, address);
  if (wait !== null) throw new ApiError("TOO_MANY_ATTEMPTS", { headers: { "retry-after": String(wait) } });
  let valid: boolean;
  try {
    valid = attempt.user
      ? await services.hasher.verify(attempt.password, attempt.user.passwordHash)
      : await services.hasher.verifyNothing(attempt.password);
  } catch (error) {
    // Never compared (the hashing service was unavailable): not a guess.
    await services.throttle.withdrawAttempt(attempt.email, address).catch(() => {});
    throw error;
  }
  if (valid) await services.throttle.recordSuccess(attempt.email, address);
  return valid;
}
