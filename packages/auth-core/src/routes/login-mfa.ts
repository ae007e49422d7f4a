import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { countAttempt } from "../accounts/counted-attempt.js";
import { requireRelyingParty } from "../accounts/relying-party.js";
import { checkTransport, signedInBody, signedInReply } from "../accounts/signed-in-body.js";
import type { AuthServices } from "../context.js";
import { defineOperation } from "../endpoints/operation.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import type { MfaTokenRow } from "../mfa/second-factor-store.js";
import type { SignInOutcome } from "../mfa/second-factors.js";

/**
 * The second step with a passkey: one of the user's, answering a challenge handed out for this
 * user's second step; its use is recorded with the mfa token spent, in one transaction.
 */
async function completeWithPasskey(
  services: AuthServices,
  request: ApiRequest,
  challenge: MfaTokenRow,
  response: AuthenticationResponseJSON,
): Promise<SignInOutcome> {
  const rp = requireRelyingParty(services, request);
  const ceremony = { purpose: "second-step", userId: challenge.userId } as const;
  const passkey = await services.passkeys.passkeyOf(response, ceremony);
  const use = passkey && (await services.passkeys.verifySignIn(response, passkey, ceremony, rp));
  if (!use) return "wrong-code";
  const spent = await services.passkeys.recordUse(use, (trx) =>
    services.mfa.store.spendToken(trx, challenge.tokenHash, services.mfa.now()),
  );
  return spent ? "accepted" : "token-spent";
}

/**
 * The `mfaToken` of a second step after a provider's sign-in (docs/providers.md#second-factors): it
 * is in an HttpOnly cookie, so only a request from the app's own pages may use it (403 otherwise).
 * Neither in the body nor in the cookie: 400, as a body without it always was.
 */
function secondStepCookie(services: AuthServices, request: ApiRequest): string {
  const token = services.cookies.mfaToken(request);
  if (token === null) throw new ApiError("INVALID_BODY", { issues: [{ path: ["mfaToken"], message: "is required" }] });
  services.cookies.checkOrigin(request);
  return token;
}

/**
 * `POST /api/<auth>/login/mfa` `{ mfaToken, code | recoveryCode | passkey }`: the second step of
 * a sign-in, answered as login answers (either transport). A code or a passkey's answer is counted
 * as a login attempt for the user's email before it is checked (docs/api.md#login: 5 wrong ones lock
 * the email); a TOTP code is accepted once, a recovery code works once, and the `mfaToken` is
 * spent with the accepted factor (401 `INVALID_MFA_TOKEN` once spent or after 5 minutes).
 */
export const loginMfa = defineOperation("loginMfa", async ({ context, services, request, body }) => {
  const transport = checkTransport(services, request, body.transport);
  const fromCookie = body.mfaToken === undefined;
  const mfaToken = body.mfaToken ?? secondStepCookie(services, request);
  const found =
    mfaToken && (await services.mfa.findTokenOf(mfaToken, "challenge", (id) => context.store.findUser(services.auth.entity, id)));
  if (!found) throw new ApiError("INVALID_MFA_TOKEN");
  const { token: challenge, user } = found;
  const attempt = await countAttempt(context, services, request, user.email, { userId: user.id });
  const { passkey } = body;
  const method = passkey ? "passkey" : body.code !== undefined ? "totp" : "recovery_code";
  const outcome = await attempt.compare(() => {
    if (passkey) return completeWithPasskey(services, request, challenge, passkey);
    return services.mfa.completeSignIn(
      challenge,
      body.code !== undefined ? { code: body.code } : { recoveryCode: body.recoveryCode ?? "" },
    );
  });
  if (outcome === "wrong-code") {
    attempt.fail("mfa.failed", { method });
    throw new ApiError(passkey ? "INVALID_PASSKEY" : "INVALID_MFA_CODE");
  }
  // The code was right, but another request with this token won the race (and its success forgave the count).
  if (outcome === "token-spent") throw new ApiError("INVALID_MFA_TOKEN");
  await attempt.succeed();
  const reply = signedInReply(services, 200, await signedInBody(context, services, user, request, { method }), transport);
  return fromCookie ? { ...reply, cookies: [...(reply.cookies ?? []), services.cookies.mfaCookie("")] } : reply;
});
