import type { AuthServices, RouteContext } from "../context.js";
import { readJsonObject } from "../http/body.js";
import { ApiError } from "../http/errors.js";
import { json, jsonWithToken } from "../http/responses.js";
import { authenticate } from "./authenticate.js";
import { createUser, parseSignUpBody, signedInBody } from "./users.js";

/** `GET /api/<auth>/setup`: whether the first administrator still has to be created. */
export async function setupStatus(context: RouteContext): Promise<Response> {
  return json(200, { setupRequired: !(await context.store.isSetupComplete()) }, { "cache-control": "no-store" });
}

/** `POST /api/<auth>/setup`: creates the first user, with the setup role, and signs them in. */
export async function setup(context: RouteContext, services: AuthServices, request: Request): Promise<Response> {
  await authenticate(context, request);
  if (await context.store.isSetupComplete()) throw new ApiError("SETUP_COMPLETE");
  const values = parseSignUpBody(services, await readJsonObject(request));
  const user = await createUser(context, services, values, { role: services.auth.setupRole, setup: "first-user-only" });
  return jsonWithToken(201, await signedInBody(services, user));
}
