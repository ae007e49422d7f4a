import { admitEmailRequest } from "../accounts/email-request.js";
import { byUser, requestEvents } from "../accounts/security-events.js";
import { defineOperation } from "../endpoints/operation.js";
import { ApiError } from "../http/errors.js";
import { json } from "../http/responses.js";
import { serializeRecord } from "../records/serialize.js";

/**
 * `POST /api/<auth>/verify-email` `{ token }`: confirms the address the link was sent to, when it
 * is still the user's; 200 `{ user }`. The token works once (of simultaneous uses, one succeeds).
 */
export const verifyEmail = defineOperation("verifyEmail", async ({ context, services, request, body: { token } }) => {
  const now = services.sessions.now();
  const found = await services.accountTokens.findLive(token, ["verify"], now);
  if (!found) throw new ApiError("INVALID_VERIFICATION_TOKEN");
  const events = requestEvents(context, services, request);
  const record = await context.store.update(
    services.auth.entity,
    found.userId,
    { emailVerified: 1, everVerified: 1 },
    {
      guard: async (trx, current) => {
        const spent = await services.accountTokens.spend(trx, found.id, now);
        if (!spent || current.email !== found.email) throw new ApiError("INVALID_VERIFICATION_TOKEN");
        await events.write(trx, { type: "email.verified", ...byUser({ id: found.userId, email: found.email }), detail: { via: "verify" } });
      },
    },
  );
  if (!record) throw new ApiError("INVALID_VERIFICATION_TOKEN");
  return json(200, { user: serializeRecord(services.auth.entity, record) });
});

/**
 * `POST /api/<auth>/resend-verification` `{ email }`: 202 `{}` for every well-formed email; a
 * known user whose address is not confirmed yet is sent a new link (the earlier ones stop working),
 * at the same cost to the server as any other email (see forgot-password).
 */
export const resendVerification = defineOperation("resendVerification", async ({ context, services, request, body }) => {
  const email = await admitEmailRequest(context, services.resendVerificationThrottle, request, body.email);
  const user = await context.store.findByEmail(services.auth.entity, email);
  await services.mail?.sendOnRequest("verify", user && !user.emailVerified ? user : undefined);
  return json(202, {});
});
