import { authenticate } from "../accounts/authenticate.js";
import { byUser, requestEvents } from "../accounts/security-events.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { readJsonObject } from "../http/body.js";
import { ApiError } from "../http/errors.js";
import { parseBody } from "../http/parse.js";
import { json, type Reply } from "../http/responses.js";
import { serializeRecord } from "../records/serialize.js";
import { admitEmailRequest } from "./forgot-password.js";
import { verifyEmailBodySchema } from "./mail-bodies.js";

/**
 * `POST /api/<auth>/verify-email` `{ token }`: confirms the address the link was sent to, when it
 * is still the user's; 200 `{ user }`. The token works once (of simultaneous uses, one succeeds).
 */
export async function verifyEmail(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  await authenticate(context, request, { cookie: false });
  const { token } = parseBody(verifyEmailBodySchema, await readJsonObject(request));
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
}

/**
 * `POST /api/<auth>/resend-verification` `{ email }`: 202 `{}` for every well-formed email; a
 * known user whose address is not confirmed yet is sent a new link (the earlier ones stop working),
 * at the same cost to the server as any other email (see forgot-password).
 */
export async function resendVerification(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  await authenticate(context, request, { cookie: false });
  const email = await admitEmailRequest(context, services.resendVerificationThrottle, request);
  const user = await context.store.findByEmail(services.auth.entity, email);
  await services.mail?.sendOnRequest("verify", user && !user.emailVerified ? user : undefined);
  return json(202, {});
}
