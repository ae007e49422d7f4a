import { loginBodySchema } from "../accounts/auth-body-schemas.js";
import { authenticate } from "../accounts/authenticate.js";
import { checkPassword } from "../accounts/check-password.js";
import { checkTransport, signedInBody, signedInReply } from "../accounts/signed-in-body.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { readBody } from "../http/parse.js";
import type { Reply } from "../http/responses.js";
import { checkEmailConfirmed } from "../policy/email-verification.js";
import { normalizeEmail } from "../records/email.js";
import { enforce } from "./access.js";

/**
 * `POST /api/<auth>/login`: email and password in, a token out. A full hash queue is 503 before
 * the body is read, and again if it filled by the time the password is compared. Under
 * `auth.verifyEmail`, a user who never confirmed an address is 403 `EMAIL_NOT_VERIFIED`, after the
 * password was found right.
 */
export async function login(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  await authenticate(context, request, { cookie: false });
  services.hasher.ensureRoom();
  const body = await readBody(request, loginBodySchema);
  const transport = checkTransport(services, request, body.transport);
  const email = normalizeEmail(body.email);
  const user = await context.store.findByEmail(services.auth.entity, email);
  const valid = await checkPassword(context, services, request, { email, password: body.password, user });
  if (!user || !valid) throw new ApiError("INVALID_CREDENTIALS");
  // Only after the password: without it, the answer says nothing about the account.
  enforce(checkEmailConfirmed(services.auth, user));
  return signedInReply(services, 200, await signedInBody(context, services, user, request), transport);
}
