import { invalidTokenError, requireUser } from "../accounts/authenticate.js";
import { checkPassword } from "../accounts/check-password.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { readBody } from "../http/parse.js";
import { jsonWithToken, type Reply } from "../http/responses.js";
import { recoveryCodesBodySchema } from "./mfa-bodies.js";

/** The 409 of a request that needs TOTP on. */
function totpOff(): ApiError {
  return new ApiError("CONFLICT", { message: "Two-step verification is off: recovery codes come with it" });
}

/**
 * `POST /api/<auth>/mfa/recovery-codes` `{ currentPassword }`: ten new recovery codes, shown only
 * here; the old ones stop working. The password is checked under login throttling (403 when wrong);
 * 409 while TOTP is off.
 */
export async function regenerateRecoveryCodes(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  const { user } = await requireUser(context, request);
  const body = await readBody(request, recoveryCodesBodySchema);
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
}
