import { requireUser } from "../accounts/authenticate.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { json, type Reply } from "../http/responses.js";
import { serializeRecord } from "../records/serialize.js";

/** `GET /api/<auth>/me`: the caller's profile; an API key's user too, whatever its scopes. */
export async function me(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  const { user } = await requireUser(context, request, { apiKeys: true });
  return json(200, { user: serializeRecord(services.auth.entity, user) });
}
