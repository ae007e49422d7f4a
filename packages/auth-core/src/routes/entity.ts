import { invalidTokenError } from "../accounts/authenticate.js";
import { createUser } from "../accounts/create-user.js";
import { checkRecentSignIn } from "../accounts/recent-sign-in.js";
import { aboutUser, requestEvents } from "../accounts/security-events.js";
import type { EntityModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { readJsonObject } from "../http/body.js";
import { ApiError, enforce } from "../http/errors.js";
import { json, noContent, type Reply } from "../http/responses.js";
import { referenceError, storeError } from "../http/store-errors.js";
import { leaveAllOrganizations } from "../organizations/leave-all.js";
import { checkKeyUserCreate } from "../policy/api-keys.js";
import { grantsSignIn } from "../policy/credentials.js";
import { isInvitation, vouchesForEmail } from "../policy/email-verification.js";
import { checkFieldGuards } from "../policy/field-guards.js";
import { checkOwnership } from "../policy/ownership.js";
import { checkLastAdmin, checkSetupRoleUser, removesSetupRoleHolder } from "../policy/setup-role.js";
import { defaultsFor } from "../records/defaults.js";
import { encodeListCursor, encodeSortedCursor } from "../records/list-cursor.js";
import { parseRecordBody } from "../records/parse-body.js";
import { serializeRecord } from "../records/serialize.js";
import { isForeignKeyViolation } from "../store/errors.js";
import type { RecordScope } from "../store/record-store.js";
import { MissingRefError, referrersOf, refTargetsOf } from "../store/references.js";
import { type Permitted, permit } from "./access.js";
import { listQuery } from "./list-query.js";
import { checkRefs } from "./refs.js";
import { checkRoleValue } from "./role-value.js";

/**
 * `GET /api/<segment>`: a page of the records the caller may read (docs/api.md#lists), by `offset` or
 * `after` a page's `nextCursor`, searched (`q`), filtered (`where.<field>`) and sorted (`sort`) as
 * asked; `total` when at most 10,000 (or with `total=exact`).
 */
export async function listRecords(
  context: RouteContext,
  request: ApiRequest,
  entity: EntityModel,
  within: RecordScope = {},
): Promise<Reply> {
  const access = await permit(context, request, entity, "read", within);
  const { options, sort } = listQuery(new URL(request.url).searchParams, entity);
  const ownedBy = access.scope === "own" ? access.caller?.id : undefined;
  const page = await context.store.list(entity, { ...options, ...within, ...(ownedBy ? { ownedBy } : {}) });
  const { next } = page;
  return json(200, {
    items: page.rows.map((row) => serializeRecord(entity, row)),
    ...(page.total === null ? {} : { total: page.total }),
    nextCursor: next && ("createdAt" in next ? encodeListCursor(next) : encodeSortedCursor(sort ?? "", next)),
  });
}

/** `GET /api/<segment>/<id>`. */
export async function readRecord(
  context: RouteContext,
  request: ApiRequest,
  entity: EntityModel,
  id: string,
  within: RecordScope = {},
): Promise<Reply> {
  const access = await permit(context, request, entity, "read", within);
  // Another organization's record is not found here, whatever its id: 404, never 403.
  const record = await context.store.find(entity, id, within);
  if (!record) throw new ApiError("NOT_FOUND");
  enforce(checkOwnership(entity, access, record));
  return json(200, { item: serializeRecord(entity, record) });
}

/** `POST /api/<segment>`: creates a record owned by the caller. */
export async function createRecord(
  context: RouteContext,
  request: ApiRequest,
  entity: EntityModel,
  within: RecordScope = {},
): Promise<Reply> {
  const access = await permit(context, request, entity, "create", within);
  const { caller } = access;
  const body = await readJsonObject(request);
  const services = context.services;
  const invitation =
    entity.isAuthEntity &&
    services !== null &&
    isInvitation(services.auth, caller, body, { mailAvailable: services.mail !== null && services.endpoints.passwordReset });
  const { currentPassword, ...values } = parseRecordBody(entity, body, "create", {
    ...(invitation ? { omit: ["password"] } : {}),
    ...(entity.isAuthEntity ? { extraKeys: ["currentPassword"] } : {}),
  });
  if (entity.isAuthEntity && access.credential === "api-key") enforce(checkKeyUserCreate(body));
  checkRoleValue(context, entity, values);
  await checkRefs(context, entity, values, within.organizationId);
  enforce(checkFieldGuards(services?.auth ?? null, entity, caller, values));
  // A user with a password or the setup role is a sign-in of its own: a stolen session must not make one.
  if (services && caller && access.session && entity.isAuthEntity && grantsSignIn(services.auth, caller, null, values)) {
    await checkRecentSignIn(context, services, request, { user: caller, session: access.session }, currentPassword);
  }

  if (entity.isAuthEntity && services) return createUserRecord(context, services, request, access, { values, invitation });

  // The owner is the caller, unless a caller allowed past the field guard (the setup role) names one.
  const ownerField = entity.ownerField;
  const owner = ownerField && !Object.hasOwn(values, ownerField) ? { [ownerField]: caller?.id ?? null } : {};
  // A tenant record belongs to the organization of its path, whatever the body says (it never moves).
  const organization: Record<string, unknown> = entity.tenant ? { [ORGANIZATION_ID_FIELD]: within.organizationId } : {};
  const record: Record<string, unknown> = { ...defaultsFor(entity, values), ...values, ...owner, ...organization };
  // A required owner field an anonymous caller cannot fill in.
  if (ownerField && record[ownerField] === null && entity.fields.some((field) => field.name === ownerField && field.required)) {
    throw new ApiError("INVALID_BODY", { issues: [{ path: [ownerField], message: "is required: sign in, and it is you" }] });
  }
  try {
    const inserted = await context.store.insert(entity, record, {
      refs: refTargetsOf(context.model, entity, record, within.organizationId),
    });
    return json(201, { item: serializeRecord(entity, inserted) });
  } catch (error) {
    // The organization was deleted meanwhile: its foreign key refused the record.
    if (entity.tenant && isForeignKeyViolation(error)) throw new ApiError("NOT_FOUND", { cause: error });
    // The owner filled in is the caller: when that user is gone now, so is the token's standing.
    const callerGone = error instanceof MissingRefError && error.missing.some((ref) => Object.hasOwn(owner, ref.field));
    throw callerGone ? invalidTokenError() : storeError(error, { isAuthEntity: false });
  }
}

/**
 * Creates a user through `POST /api/<auth>`: the default role unless a setup-role caller names
 * one, its `user.created` event in the insert's transaction; an invitation is sent after the answer,
 * its `invitation.sent` event with its token.
 */
async function createUserRecord(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  { caller, session }: Permitted,
  { values, invitation }: { readonly values: Record<string, unknown>; readonly invitation: boolean },
): Promise<Reply> {
  const role = Object.hasOwn(values, "role") ? ((values.role as string | null) ?? null) : services.auth.defaultRole;
  const { role: _ignored, ...fields } = values;
  const verified = vouchesForEmail(services.auth, caller, { invitation });
  const events = requestEvents(context, services, request);
  const by = { actorId: caller?.id ?? null, sessionId: session?.id ?? null };
  const user = await createUser(context, services, fields, {
    role,
    setup: "mark-complete",
    verified,
    within: (trx, created) => events.write(trx, { type: "user.created", ...aboutUser(created), ...by, detail: { role, invitation } }),
  });
  if (invitation) {
    services.mail?.send("invite", user, { within: (trx) => events.write(trx, { type: "invitation.sent", ...aboutUser(user), ...by }) });
  }
  return json(201, { item: serializeRecord(services.auth.entity, user) });
}

/**
 * `DELETE /api/<segment>/<id>`; deleting a user revokes their sessions and removes their second factors and API keys. Optional `ref`s (owner fields included) that point at the record
 * become `null` in the same transaction; a required one makes it 409 `CONFLICT`, changing nothing.
 */
export async function deleteRecord(
  context: RouteContext,
  request: ApiRequest,
  entity: EntityModel,
  id: string,
  within: RecordScope = {},
): Promise<Reply> {
  const access = await permit(context, request, entity, "delete", within);
  const auth = entity.isAuthEntity ? context.services?.auth : undefined;
  // One transaction: the record is read (and locked) once, and checked as it is when deleted.
  const removed = await context.store
    .remove(entity, id, {
      ...within,
      referrers: referrersOf(context.model, entity),
      guard: async (trx, current) => {
        enforce(checkOwnership(entity, access, current));
        if (!auth) return;
        enforce(checkSetupRoleUser(auth, access.caller, current, "delete"));
        if (removesSetupRoleHolder(auth, current, "delete"))
          enforce(checkLastAdmin(await context.store.countWithRole(trx, entity, auth.setupRole)));
        const sessions = context.services?.sessions;
        if (sessions) await sessions.store.revokeAllOf(id, sessions.now(), { trx });
        // The user's second factors, API keys and linked accounts go with them: no way in outlives its account.
        await context.services?.mfa.store.removeAll(trx, id);
        await context.services?.apiKeys.store.removeAll(trx, id);
        await context.services?.providers.identities.removeAll(trx, id);
        if (context.services) {
          const by = { actorId: access.caller?.id ?? null, sessionId: access.session?.id ?? null };
          const events = requestEvents(context, context.services, request);
          const organizations = context.services.organizations;
          if (organizations) await leaveAllOrganizations(trx, organizations, events, { user: { id, email: String(current.email) }, ...by });
          await events.write(trx, {
            type: "user.deleted",
            userId: id,
            email: String(current.email),
            ...by,
          });
        }
      },
    })
    .catch((error: unknown) => {
      throw referenceError(error);
    });
  if (!removed) throw new ApiError("NOT_FOUND");
  return noContent();
}
