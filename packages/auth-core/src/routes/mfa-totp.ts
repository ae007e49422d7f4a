import type { Kysely } from "kysely";
import { invalidTokenError } from "../accounts/authenticate.js";
import { comparePassword } from "../accounts/check-password.js";
import { countAttempt } from "../accounts/counted-attempt.js";
import { factorAddedWork } from "../accounts/enrolling-caller.js";
import { namedUser } from "../accounts/named-user.js";
import { byUser, requestEvents } from "../accounts/security-events.js";
import { checkTransport, signedInBody, signedInReply } from "../accounts/signed-in-body.js";
import { defineOperation } from "../endpoints/operation.js";
import { ApiError } from "../http/errors.js";
import { json, jsonWithToken, noContent } from "../http/responses.js";
import type { AnyDB } from "../store/database.js";

/** The 409 of a request that finds TOTP on when it must be off. */
function totpOnAlready(): ApiError {
  return new ApiError("CONFLICT", { message: "Two-step verification is on already; turn it off first" });
}

/**
 * `GET /api/<auth>/mfa/totp`: whether the caller's TOTP is on and how many unused recovery codes
 * are left (the setup role: anyone's with `?userId=`, 404 for an unknown user); never the secret,
 * a code or a hash.
 */
export const totpStatus = defineOperation("totpStatus", async ({ context, services, caller, query }) => {
  const subject = await namedUser(context, services, caller, query.userId);
  return json(200, await services.mfa.statusOf(subject.id));
});

/**
 * `POST /api/<auth>/mfa/totp`: the caller's pending secret (signed in, or holding a required
 * enrolment's token): the one started within 5 minutes, else a new one in its place; the secret,
 * its `otpauth://` URI and a QR code of it drawn here. It is stored sealed. 409 while TOTP is on.
 * Needs a recent sign-in (or `{ currentPassword }`): a stolen session must not add a factor.
 */
export const startTotp = defineOperation("startTotp", async ({ services, caller: { user } }) => {
  const enrolment = await services.mfa.startTotp(user);
  if (!enrolment) throw totpOnAlready();
  return jsonWithToken(200, enrolment);
});

/**
 * `POST /api/<auth>/mfa/totp/confirm` `{ code }`: TOTP on, with ten recovery codes shown only
 * here; the caller's other sessions are revoked in the same transaction. With an enrolment token
 * (which this spends) the answer also signs in, as login does (`transport` honoured).
 */
export const confirmTotp = defineOperation("confirmTotp", async ({ context, services, request, caller, body }) => {
  const transport = caller.enrolment ? checkTransport(services, request, body.transport) : "body";
  const events = requestEvents(context, services, request);
  const factorAdded = factorAddedWork(services, caller);
  // Codes are guesses at the pending secret: counted like a sign-in's, so one left pending cannot be brute-forced.
  const attempt = await countAttempt(context, services, request, caller.user.email, { userId: caller.user.id });
  const outcome = await attempt.compare(() =>
    services.mfa.confirmTotp(caller.user.id, body.code, async (trx) => {
      await factorAdded(trx);
      await events.write(trx, {
        type: "mfa.enabled",
        ...byUser(caller.user),
        sessionId: caller.session?.id ?? null,
        detail: { method: "totp" },
      });
    }),
  );
  if (!outcome.confirmed && outcome.reason === "wrong-code") {
    attempt.fail("mfa.failed", { method: "totp" });
    throw new ApiError("INVALID_BODY", { issues: [{ path: ["code"], message: "is not a current code of the new secret" }] });
  }
  await attempt.giveBack();
  if (!outcome.confirmed) {
    throw new ApiError("CONFLICT", { message: "There is no pending secret to confirm, or it expired: start with POST mfa/totp" });
  }
  const { recoveryCodes } = outcome;
  if (!caller.enrolment) return jsonWithToken(200, { recoveryCodes });
  const signedIn = await signedInBody(context, services, caller.user, request, { method: "totp" });
  return signedInReply(services, 200, { recoveryCodes, ...signedIn }, transport);
});

/**
 * `DELETE /api/<auth>/mfa/totp` `{ currentPassword, code }`: TOTP off and its recovery codes gone,
 * the caller's other sessions revoked. Password and code count as one sign-in attempt (docs/api.md#login): a wrong one leaves it counted, 403; 404 while TOTP is off.
 */
export const disableTotp = defineOperation("disableTotp", async ({ context, services, request, caller: { user, session }, body }) => {
  const stored = await context.store.findUser(services.auth.entity, user.id);
  if (!stored) throw invalidTokenError();
  if ((await services.mfa.methodsOf(user.id)).length === 0) throw new ApiError("NOT_FOUND", { message: "Two-step verification is off" });
  const attempt = await countAttempt(context, services, request, stored.email, { userId: stored.id });
  if (!(await attempt.compare(() => comparePassword(services, body.currentPassword, stored)))) {
    attempt.fail("login.failed", { reason: "wrong_current_password" });
    throw new ApiError("FORBIDDEN", {
      message: "Your current password is needed",
      issues: [{ path: ["currentPassword"], message: "is wrong" }],
    });
  }
  const events = requestEvents(context, services, request);
  const revokeOthers = async (trx: Kysely<AnyDB>) => {
    await services.sessions.store.revokeAllOf(user.id, services.sessions.now(), { trx, except: session.id });
    await events.write(trx, { type: "mfa.disabled", ...byUser(stored), sessionId: session.id, detail: { method: "totp" } });
  };
  if (!(await services.mfa.disableTotp(user.id, body.code, revokeOthers))) {
    attempt.fail("mfa.failed", { method: "totp" });
    throw new ApiError("FORBIDDEN", {
      message: "A current code is needed",
      issues: [{ path: ["code"], message: "is wrong or already used" }],
    });
  }
  await attempt.succeed();
  return noContent();
});
