import { requireUser } from "../accounts/authenticate.js";
import type { AuthServices, RouteContext } from "../context.js";
import { json } from "../http/responses.js";
import { serializeRecord } from "../records/serialize.js";

/** `GET /api/<auth>/me`: the caller's profile. */
export async function me(context: RouteContext, services: AuthServices, request: Request): Promise<Response> {
  const { user } = await requireUser(context, request);
  return json(200, { user: serializeRecord(services.auth.entity, user) });
}
