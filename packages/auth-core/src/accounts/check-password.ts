import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import type { StoredUser } from "../store/rows.js";
import { countAttempt } from "./counted-attempt.js";
import { secondFactorMethods } from "./sign-in.js";

/** A password to check for a normalized email, and the account it belongs to (`undefined` when none). */
export interface PasswordAttempt {
  readonly email: string;
  readonly password: string;
  readonly user: StoredUser | undefined;
}

/** Compares a password with a user's hash, or, for no user, with a dummy hash: every path costs one comparison. */
export function comparePassword(services: AuthServices, password: string, user: StoredUser | undefined): Promise<boolean> {
  return user ? services.hasher.verify(password, user.passwordHash) : services.hasher.verifyNothing(password);
}

/**
 * Checks a password under login throttling (docs/api.md#login): the attempt is counted as a failure
 * before the comparison ({@link countAttempt}) and forgiven when the password is right. For a user
 * with a second factor a right password only gives the attempt back: it proves one factor of two,
 * so it must not wipe out wrong codes.
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
  const counted = await countAttempt(context, services, request, attempt.email, { userId: attempt.user?.id ?? null });
  const valid = await counted.compare(() => comparePassword(services, attempt.password, attempt.user));
  if (!valid || !attempt.user) {
    counted.fail("login.failed", { reason: "wrong_current_password" });
    return false;
  }
  const secondFactor = (await secondFactorMethods(services, attempt.user.id)).length > 0;
  await (secondFactor ? counted.giveBack() : counted.succeed());
  return true;
}
