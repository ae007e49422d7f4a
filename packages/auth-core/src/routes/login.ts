import { comparePassword } from "../accounts/check-password.js";
import { countAttempt } from "../accounts/counted-attempt.js";
import { answerSignIn, secondStepOf } from "../accounts/sign-in.js";
import { checkTransport } from "../accounts/signed-in-body.js";
import { defineOperation, roomInHashQueue } from "../endpoints/operation.js";
import { ApiError, enforce } from "../http/errors.js";
import { checkEmailConfirmed } from "../policy/email-verification.js";
import { normalizeEmail } from "../records/email.js";

/**
 * `POST /api/<auth>/login`: email and password in, a token out. A full hash queue is 503 before
 * the body is read, and again if it filled by the time the password is compared. Under
 * `auth.verifyEmail`, a user who never confirmed an address is 403 `EMAIL_NOT_VERIFIED`, after the
 * password was found right. A user with a second factor gets an `mfaToken` for `login/mfa` instead
 * of a session, and the attempt stays on the email's count until that step succeeds; one whose
 * role requires a factor gets an enrolment token (docs/mfa.md).
 */
export const login = defineOperation("login", { admit: [roomInHashQueue] }, async ({ context, services, request, body }) => {
  const transport = checkTransport(services, request, body.transport);
  const email = normalizeEmail(body.email);
  const user = await context.store.findByEmail(services.auth.entity, email);
  const attempt = await countAttempt(context, services, request, email, { userId: user?.id ?? null });
  const valid = await attempt.compare(() => comparePassword(services, body.password, user));
  if (!user || !valid) {
    attempt.fail("login.failed", { reason: user ? "wrong_password" : "unknown_email" });
    throw new ApiError("INVALID_CREDENTIALS");
  }
  const step = await secondStepOf(services, user);
  await (step.kind === "challenge" ? attempt.giveBack() : attempt.succeed());
  // Only after the password: without it, the answer says nothing about the account.
  const confirmed = checkEmailConfirmed(services.auth, user);
  if (!confirmed.allowed) attempt.fail("login.failed", { reason: "email_not_verified" });
  enforce(confirmed);
  return answerSignIn(context, services, request, user, { step, status: 200, transport });
});
