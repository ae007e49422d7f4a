import type { RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import type { MailThrottle } from "../throttle/mail-throttle.js";

const TOO_MANY_REQUESTS = "Too many requests for this email or from this address; try again later";

/**
 * Counts a well-formed body's (normalized) `email` against `throttle`, known email or not (a
 * malformed body was a 400 before, not counted), and returns it.
 *
 * @throws {ApiError} `TOO_MANY_ATTEMPTS` with `Retry-After`.
 */
export async function admitEmailRequest(
  context: RouteContext,
  throttle: MailThrottle,
  request: ApiRequest,
  email: string,
): Promise<string> {
  const wait = await throttle.admit(email, context.clientAddress(request));
  if (wait !== null) throw new ApiError("TOO_MANY_ATTEMPTS", { message: TOO_MANY_REQUESTS, headers: { "retry-after": String(wait) } });
  return email;
}
