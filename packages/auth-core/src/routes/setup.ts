import { createUser } from "../accounts/create-user.js";
import { byUser, requestEvents } from "../accounts/security-events.js";
import type { SetupStatus } from "../accounts/setup-view.js";
import { answerSignIn, secondStepOf } from "../accounts/sign-in.js";
import { checkTransport } from "../accounts/signed-in-body.js";
import { type Admission, defineOperation } from "../endpoints/operation.js";
import { ApiError } from "../http/errors.js";
import { json } from "../http/responses.js";
import type { SetupTokenCheck } from "../tokens/setup-token.js";
import { checkRefs } from "./refs.js";

/**
 * `GET /api/<auth>/setup`: whether the first administrator still has to be created, and, while
 * they do on a server with a setup token, `setupTokenRequired: true`. Open to anyone, but a token
 * that fails verification is a 401 here as everywhere.
 */
export const setupStatus = defineOperation("setupStatus", async ({ context, services }) => {
  const setupRequired = !(await context.store.isSetupComplete());
  const body: SetupStatus = setupRequired && services.setupToken ? { setupRequired, setupTokenRequired: true } : { setupRequired };
  return json(200, body);
});

/** 403 `FORBIDDEN` unless `candidate` is the server's setup token. */
function checkSetupToken(check: SetupTokenCheck, candidate: unknown): void {
  if (check(candidate)) return;
  const problem =
    candidate === undefined ? "is required: this server was started with SETUP_TOKEN" : "does not match the server's SETUP_TOKEN";
  throw new ApiError("FORBIDDEN", {
    message: "Setup needs the server's setup token",
    issues: [{ path: ["setupToken"], message: problem }],
  });
}

/** 409 `SETUP_COMPLETE` once any user exists: before the body is read. */
const setupNotComplete: Admission<"setup"> = async ({ context }) => {
  if (await context.store.isSetupComplete()) throw new ApiError("SETUP_COMPLETE");
};

/**
 * `POST /api/<auth>/setup`: creates the first user, with the setup role, and signs them in (or,
 * when `auth.mfa.required` holds the setup role, answers an enrolment token instead). With a
 * setup token, the body's `setupToken` must match it: checked after the body is validated and
 * before anything is hashed or written; it is never stored.
 */
export const setup = defineOperation("setup", { admit: [setupNotComplete] }, async ({ context, services, request, body }) => {
  const { values, setupToken } = body;
  const transport = checkTransport(services, request, body.transport);
  await checkRefs(context, services.auth.entity, values);
  if (services.setupToken) checkSetupToken(services.setupToken, setupToken);
  const events = requestEvents(context, services, request);
  const user = await createUser(context, services, values, {
    role: services.auth.setupRole,
    setup: "first-user-only",
    verified: true,
    within: (trx, created) => events.write(trx, { type: "setup", ...byUser(created), detail: { role: created.role } }),
  });
  // An administrator role that requires a second factor enrols one before any session starts.
  return answerSignIn(context, services, request, user, { step: await secondStepOf(services, user), status: 201, transport });
});
