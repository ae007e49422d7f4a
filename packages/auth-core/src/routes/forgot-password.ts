import { admitEmailRequest } from "../accounts/email-request.js";
import { requestEvents } from "../accounts/security-events.js";
import { defineOperation } from "../endpoints/operation.js";
import { json } from "../http/responses.js";

/**
 * `POST /api/<auth>/forgot-password` `{ email }`: 202 `{}` for every well-formed email. A known
 * user's reset link is written before the answer (an unknown email costs an equal write) and sent
 * after it, so neither the answer nor what the server does after it says whether the account
 * exists, nor anything about the mail server.
 */
export const forgotPassword = defineOperation("forgotPassword", async ({ context, services, request, body }) => {
  const email = await admitEmailRequest(context, services.forgotPasswordThrottle, request, body.email);
  const user = await context.store.findByEmail(services.auth.entity, email);
  const events = requestEvents(context, services, request);
  // Recorded for an email without an account too, in the unusable token's transaction: the same writes either way.
  const requested = { type: "password.reset_requested", userId: user?.id ?? null, email } as const;
  await services.mail?.sendOnRequest("reset", user, { within: (trx) => events.write(trx, requested) });
  return json(202, {});
});
