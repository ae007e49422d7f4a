import { createUser } from "../accounts/create-user.js";
import { byUser, requestEvents } from "../accounts/security-events.js";
import { defineOperation, roomInHashQueue } from "../endpoints/operation.js";
import { ApiError } from "../http/errors.js";
import { json } from "../http/responses.js";
import { serializeRecord } from "../records/serialize.js";
import { checkRefs } from "./refs.js";

const TOO_MANY_REGISTRATIONS = "Too many registrations from this address; try again later";

/**
 * `POST /api/<auth>/register`: a new user with the default role, never an administrator.
 *
 * A full hash queue is 503 first, before the body is read, so shedding a flood costs as little
 * as answering. After the body (415, 413, 400) a place in the queue is taken (503 when it filled
 * meanwhile; the place is not held while a slow client sends its body), then the registration
 * counts against the client address's hourly limit (429 past it), then the email is looked up
 * (409) and the password hashed. So one past the limit never gets a password hashed. With
 * `auth.verifyEmail`, a confirmation link is sent after the answer.
 */
export const register = defineOperation("register", { admit: [roomInHashQueue] }, async ({ context, services, request, body: values }) => {
  await checkRefs(context, services.auth.entity, values);
  const events = requestEvents(context, services, request);
  const place = services.hasher.reserve();
  try {
    const wait = await services.registerThrottle.admit(context.clientAddress(request));
    if (wait !== null)
      throw new ApiError("TOO_MANY_ATTEMPTS", { message: TOO_MANY_REGISTRATIONS, headers: { "retry-after": String(wait) } });
    const user = await createUser(context, services, values, {
      role: services.auth.defaultRole,
      setup: "mark-complete",
      hash: place.hash,
      verified: false,
      within: (trx, created) => events.write(trx, { type: "register", ...byUser(created), detail: { role: created.role } }),
    });
    if (services.auth.verifyEmail) services.mail?.send("verify", user);
    return json(201, { user: serializeRecord(services.auth.entity, user) });
  } finally {
    place.release();
  }
});
