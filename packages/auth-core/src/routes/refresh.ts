import { requestEvents } from "../accounts/security-events.js";
import { checkTransport, signedInReply, tokensBody } from "../accounts/signed-in-body.js";
import { defineOperation } from "../endpoints/operation.js";
import { ApiError } from "../http/errors.js";

/**
 * `POST /api/<auth>/refresh`: a refresh token in, a new token pair and the user (re-read) out; the
 * token presented is spent (docs/api.md#sessions). No bearer token is needed, but one that fails
 * verification is still a 401.
 */
export const refresh = defineOperation("refresh", async ({ context, services, request, body }) => {
  const transport = checkTransport(services, request, body.transport);
  const refreshToken = body.refreshToken ?? services.cookies.refreshToken(request);
  if (refreshToken === null) throw new ApiError("INVALID_REFRESH_TOKEN");
  const events = requestEvents(context, services, request);
  const outcome = await services.sessions.refresh(services.auth.entity, refreshToken, {
    onReuse: (trx, session) => events.write(trx, { type: "session.reuse_detected", userId: session.userId, sessionId: session.id }),
  });
  // A refused cookie is left as it is: it may be a second tab's, within the grace of a rotation whose
  // winner has just set new cookies, which clearing would remove.
  if (!outcome.refreshed) throw new ApiError("INVALID_REFRESH_TOKEN");
  return signedInReply(services, 200, await tokensBody(services, outcome.user, outcome.issued), transport);
});
