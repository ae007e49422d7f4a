import { type Authenticated, invalidTokenError } from "../accounts/authenticate.js";
import { aboutUser, requestEvents } from "../accounts/security-events.js";
import { apiKeyView, type CreatedApiKey } from "../api-keys/api-key-view.js";
import type { AuthServices, RouteContext } from "../context.js";
import { defineOperation } from "../endpoints/operation.js";
import { ApiError } from "../http/errors.js";
import { json, jsonWithToken, noContent } from "../http/responses.js";
import { API_KEY_LIMITS } from "../policy/api-keys.js";
import { holdsSetupRole } from "../policy/setup-role.js";
import { writeTransaction } from "../store/transaction.js";

/** When a new key expires: `null` for never; 400 for a time that has passed. */
function expiryOf(expiresAt: string | null | undefined, now: number): number | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  const time = Date.parse(expiresAt);
  if (time <= now) throw new ApiError("INVALID_BODY", { issues: [{ path: ["expiresAt"], message: "must be in the future" }] });
  return time;
}

/**
 * `POST /api/<auth>/api-keys` `{ name, expiresAt?, scopes? }`: a new key for the caller, signed in
 * with a session (an API key cannot make keys: 403) that signed in recently or sends
 * `currentPassword`; 201 with the key, shown only here. Its `api_key.created` event commits with it.
 */
export const createApiKey = defineOperation("createApiKey", async ({ context, services, request, caller: { user, session }, body }) => {
  const expiresAt = expiryOf(body.expiresAt, services.sessions.now());
  const scopes = body.scopes === undefined ? null : [...new Set(body.scopes)];
  const events = requestEvents(context, services, request);
  const { row, key } = await writeTransaction(context.database, async (trx) => {
    // A recovery that revokes the session meanwhile either waits for this key, and revokes it too, or is seen here.
    if (!(await services.sessions.store.holdLive(trx, session.id, services.sessions.now()))) throw invalidTokenError();
    if ((await services.apiKeys.store.countOf(trx, user.id)) >= API_KEY_LIMITS.maxKeysPerUser) {
      throw new ApiError("CONFLICT", { message: `You have ${API_KEY_LIMITS.maxKeysPerUser} API keys: revoke one first` });
    }
    const issued = await services.apiKeys.issue(trx, user.id, { name: body.name, expiresAt, scopes });
    await events.write(trx, {
      type: "api_key.created",
      ...aboutUser(user),
      actorId: user.id,
      sessionId: session.id,
      detail: { keyId: issued.row.id, name: issued.row.name },
    });
    return issued;
  });
  const { lastUsedAt: _never, ...view } = apiKeyView(row);
  const created: CreatedApiKey = { ...view, key };
  return jsonWithToken(201, created);
});

/** Whose keys a request names: `?userId=` (anyone's for the setup role, as the entry's `setupRoleWith` lets through), else the caller's. */
async function subjectOf(
  context: RouteContext,
  services: AuthServices,
  { caller, user }: Authenticated,
  userId: string | undefined,
): Promise<{ id: string; email: string }> {
  if (userId === undefined || userId === caller.id) return user;
  const target = await context.store.findUser(services.auth.entity, userId);
  if (!target) throw new ApiError("NOT_FOUND");
  return target;
}

/** `GET /api/<auth>/api-keys`: the caller's keys, oldest first (the setup role: anyone's with `?userId=`); never a key or its hash. */
export const listApiKeys = defineOperation("listApiKeys", async ({ context, services, caller, query }) => {
  const subject = await subjectOf(context, services, caller, query.userId);
  const rows = await services.apiKeys.store.listOf(subject.id);
  return json(200, { items: rows.map(apiKeyView) });
});

/**
 * `DELETE /api/<auth>/api-keys/<id>`: revokes one of the caller's keys (the setup role: anyone's),
 * with its `api_key.revoked` event; 404 for an id that is none of theirs.
 */
export const revokeApiKey = defineOperation(
  "revokeApiKey",
  async ({ context, services, request, caller: { caller, user, session }, path: { id } }) => {
    const key = await services.apiKeys.store.find(id);
    if (!key || (key.userId !== caller.id && !holdsSetupRole(services.auth, caller.role))) throw new ApiError("NOT_FOUND");
    const owner = key.userId === caller.id ? user : await context.store.findUser(services.auth.entity, key.userId);
    const events = requestEvents(context, services, request);
    const removed = await writeTransaction(context.database, async (trx) => {
      if (!(await services.apiKeys.store.remove(trx, key.userId, id))) return false;
      await events.write(trx, {
        type: "api_key.revoked",
        userId: key.userId,
        email: owner?.email ?? null,
        actorId: caller.id,
        sessionId: session.id,
        detail: { keyId: key.id, name: key.name },
      });
      return true;
    });
    if (!removed) throw new ApiError("NOT_FOUND");
    return noContent();
  },
);
