import type { AuthServices, RouteContext } from "../context.js";
import { readJsonObject } from "../http/body.js";
import { json } from "../http/responses.js";
import { serializeRecord } from "../records/serialize.js";
import { authenticate } from "./authenticate.js";
import { checkRefs } from "./refs.js";
import { createUser, parseSignUpBody } from "./users.js";

/** `POST /api/<auth>/register`: a new user with the default role, never an administrator. */
export async function register(context: RouteContext, services: AuthServices, request: Request): Promise<Response> {
  await authenticate(context, request);
  const values = parseSignUpBody(services, await readJsonObject(request));
  await checkRefs(context, services.auth.entity, values);
  const user = await createUser(context, services, values, { role: services.auth.defaultRole, setup: "mark-complete" });
  return json(201, { user: serializeRecord(services.auth.entity, user) });
}
