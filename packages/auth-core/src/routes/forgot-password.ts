import { authenticate } from "../accounts/authenticate.js";
import { requestEvents } from "../accounts/security-events.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { readJsonObject } from "../http/body.js";
import { ApiError } from "../http/errors.js";
import { parseBody } from "../http/parse.js";
import { json, type Reply } from "../http/responses.js";
import type { MailThrottle } from "../throttle/mail-throttle.js";
import { emailRequestBodySchema } from "./mail-bodies.js";

const TOO_MANY_REQUESTS = "Too many requests for this email or from this address; try again later";

/**
 * Reads a well-formed `{ email }` and counts it against `throttle` (known email or not; a
 * malformed body is 400 and not counted), returning the normalized email.
 *
 * @throws {ApiError} `INVALID_BODY`, or `TOO_MANY_ATTEMPTS` with `Retry-After`.
 */
export async function admitEmailRequest(context: RouteContext, throttle: MailThrottle, request: ApiRequest): Promise<string> {
  const { email } = parseBody(emailRequestBodySchema, await readJsonObject(request));
  const wait = await throttle.admit(email, context.clientAddress(request));
  if (wait !== null) throw new ApiError("TOO_MANY_ATTEMPTS", { message: TOO_MANY_REQUESTS, headers: { "retry-after": String(wait) } });
  return email;
}

/**
 * `POST /api/<auth>/forgot-password` `{ email }`: 202 `{}` for every well-formed email. A known
 * user's reset link is written before the answer (an unknown email costs an equal write) and sent
 * after it, so neither the answer nor what the server does after it says whether the account
 * exists, nor anything about the mail server.
 */
export async function forgotPassword(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  await authenticate(context, request, { cookie: false });
  const email = await admitEmailRequest(context, services.forgotPasswordThrottle, request);
  const user = await context.store.findByEmail(services.auth.entity, email);
  const events = requestEvents(context, services, request);
  // Recorded for an email without an account too, in the unusable token's transaction: the same writes either way.
  const requested = { type: "password.reset_requested", userId: user?.id ?? null, email } as const;
  await services.mail?.sendOnRequest("reset", user, { within: (trx) => events.write(trx, requested) });
  return json(202, {});
}
