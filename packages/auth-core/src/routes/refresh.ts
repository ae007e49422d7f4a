import { refreshBodySchema } from "../accounts/auth-body-schemas.js";
import { authenticate } from "../accounts/authenticate.js";
import { tokensBody } from "../accounts/signed-in-body.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { readBody } from "../http/parse.js";
import { jsonWithToken, type Reply } from "../http/responses.js";

/**
 * `POST /api/<auth>/refresh`: a refresh token in, a new token pair and the user (re-read) out; the
 * token presented is spent (CONTRACT 10). No bearer token is needed, but one that fails
 * verification is still a 401.
 */
export async function refresh(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  await authenticate(context, request);
  const body = await readBody(request, refreshBodySchema);
  const outcome = await services.sessions.refresh(services.auth.entity, body.refreshToken);
  if (!outcome.refreshed) throw new ApiError("INVALID_REFRESH_TOKEN");
  return jsonWithToken(200, await tokensBody(services, outcome.user, outcome.issued));
}
