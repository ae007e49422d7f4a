import { requireUser } from "../accounts/authenticate.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { noContent, type Reply } from "../http/responses.js";

/** `POST /api/<auth>/logout`: revokes the caller's session, so its access and refresh tokens stop working. Any body is ignored. */
export async function logout(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  const { session } = await requireUser(context, request);
  await services.sessions.store.revoke(session.id, services.sessions.now());
  return noContent();
}
