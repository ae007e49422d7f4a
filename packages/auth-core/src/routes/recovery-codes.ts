import { invalidTokenError } from "../accounts/authenticate.js";
import { checkPassword } from "../accounts/check-password.js";
import { defineOperation } from "../endpoints/operation.js";
import { ApiError } from "../http/errors.js";
import { jsonWithToken } from "../http/responses.js";

/** The 409 of a request that needs TOTP on. */
function totpOff(): ApiError {
  return new ApiError("CONFLICT", { message: "Two-step verification is off: recovery codes come with it" });
}

/**
 * `POST /api/<auth>/mfa/recovery-codes` `{ currentPassword }`: ten new recovery codes, shown only
 * here; the old ones stop working. The password is checked under login throttling (403 when wrong);
 * 409 while TOTP is off.
 */
export const regenerateRecoveryCodes = defineOperation("regenerateRecoveryCodes", async ({ context, services, request, caller, body }) => {
  const { user } = caller;
  const stored = await context.store.findUser(services.auth.entity, user.id);
  if (!stored) throw invalidTokenError();
  if ((await services.mfa.methodsOf(user.id)).length === 0) throw totpOff();
  const confirmed = await checkPassword(context, services, request, { email: stored.email, password: body.currentPassword, user: stored });
  if (!confirmed) {
    throw new ApiError("FORBIDDEN", {
      message: "Your current password is needed",
      issues: [{ path: ["currentPassword"], message: "is wrong" }],
    });
  }
  const recoveryCodes = await services.mfa.regenerateRecoveryCodes(user.id);
  if (!recoveryCodes) throw totpOff();
  return jsonWithToken(200, { recoveryCodes });
});
