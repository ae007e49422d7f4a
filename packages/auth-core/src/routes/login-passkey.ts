import { countAttempt } from "../accounts/counted-attempt.js";
import { requireRelyingParty } from "../accounts/relying-party.js";
import { checkTransport, signedInBody, signedInReply } from "../accounts/signed-in-body.js";
import { defineOperation } from "../endpoints/operation.js";
import { ApiError, enforce } from "../http/errors.js";
import { jsonWithToken } from "../http/responses.js";
import type { SignInCeremony } from "../mfa/passkeys.js";
import { checkEmailConfirmed } from "../policy/email-verification.js";

const TOO_MANY_CHALLENGES = "Too many passkey sign-ins started from this address; try again later";

/**
 * `POST /api/<auth>/login/passkey/options` `{ mfaToken? }`: the options of a sign-in with any
 * passkey of this site (discoverable credentials), or, with the `mfaToken` of a login, of its
 * second step with one of that user's passkeys (401 `INVALID_MFA_TOKEN` for a spent or expired one).
 * At most 30 a minute per client address, then 429 `TOO_MANY_ATTEMPTS` with `Retry-After`.
 */
export const loginPasskeyOptions = defineOperation("loginPasskeyOptions", async ({ context, services, request, body }) => {
  const rp = requireRelyingParty(services, request);
  // Anyone may ask, and each answer stores a challenge: counted by address before anything is written.
  const wait = await services.passkeyOptionsThrottle.admit(context.clientAddress(request));
  if (wait !== null) throw new ApiError("TOO_MANY_ATTEMPTS", { message: TOO_MANY_CHALLENGES, headers: { "retry-after": String(wait) } });
  let ceremony: SignInCeremony = { purpose: "sign-in" };
  // A second step's token: in the body, or after a provider's sign-in in its cookie (the app's own pages only).
  if (body.secondStep) services.cookies.checkOrigin(request);
  const mfaToken = body.secondStep ? (services.cookies.mfaToken(request) ?? "") : body.mfaToken;
  if (mfaToken !== undefined) {
    const found = await services.mfa.findTokenOf(mfaToken, "challenge", (id) => context.store.findUser(services.auth.entity, id));
    if (!found) throw new ApiError("INVALID_MFA_TOKEN");
    ceremony = { purpose: "second-step", userId: found.user.id };
  }
  return jsonWithToken(200, await services.passkeys.signInOptions(ceremony, rp));
});

/**
 * `POST /api/<auth>/login/passkey` `{ response }`: a sign-in with a passkey alone (two factors in
 * one: what the user has, verified by what they know or are), answered as login answers (either
 * transport). A refused answer for a known passkey counts as a failed login of its user (docs/api.md#login); an unknown passkey is 401 `INVALID_PASSKEY` like any refusal.
 */
export const loginPasskey = defineOperation("loginPasskey", async ({ context, services, request, body }) => {
  const transport = checkTransport(services, request, body.transport);
  const rp = requireRelyingParty(services, request);
  const ceremony: SignInCeremony = { purpose: "sign-in" };
  const passkey = await services.passkeys.passkeyOf(body.response, ceremony);
  const user = passkey && (await context.store.findUser(services.auth.entity, passkey.userId));
  if (!passkey || !user) throw new ApiError("INVALID_PASSKEY");
  const attempt = await countAttempt(context, services, request, user.email, { userId: user.id });
  const use = await attempt.compare(() => services.passkeys.verifySignIn(body.response, passkey, ceremony, rp));
  if (!use || !(await services.passkeys.recordUse(use))) {
    attempt.fail("login.failed", { reason: "passkey_refused" });
    throw new ApiError("INVALID_PASSKEY");
  }
  await attempt.succeed();
  enforce(checkEmailConfirmed(services.auth, user));
  return signedInReply(services, 200, await signedInBody(context, services, user, request, { method: "passkey" }), transport);
});
