import { defineOperation } from "../endpoints/operation.js";
import { json } from "../http/responses.js";
import { serializeRecord } from "../records/serialize.js";

/** `GET /api/<auth>/me`: the caller's profile; an API key's user too, whatever its scopes. */
export const me = defineOperation("me", async ({ services, caller }) =>
  json(200, { user: serializeRecord(services.auth.entity, caller.user) }),
);
