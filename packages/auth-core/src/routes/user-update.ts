import type { Kysely } from "kysely";
import { checkPassword } from "../accounts/check-password.js";
import { checkRecentSignIn } from "../accounts/recent-sign-in.js";
import { type RequestEvents, requestEvents } from "../accounts/security-events.js";
import { sessionTokens, signedInReply, startSession } from "../accounts/signed-in-body.js";
import type { EntityModel } from "../config/index.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { EventDraft } from "../events/event-log.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError, enforce } from "../http/errors.js";
import { json, type Reply } from "../http/responses.js";
import { storeError } from "../http/store-errors.js";
import { checkKeyUserUpdate } from "../policy/api-keys.js";
import {
  changesOwnCredentials,
  checkCredentialWriter,
  checkCurrentPassword,
  credentialChanges,
  grantsSignIn,
} from "../policy/credentials.js";
import { checkFieldGuards } from "../policy/field-guards.js";
import { checkOwnership } from "../policy/ownership.js";
import { checkLastAdmin, checkSetupRoleUser, removesSetupRoleHolder } from "../policy/setup-role.js";
import { serializeRecord } from "../records/serialize.js";
import type { IssuedRefresh } from "../sessions/sessions.js";
import type { AnyDB } from "../store/database.js";
import { refTargetsOf } from "../store/references.js";
import { type StoredRecord, type StoredUser, toStoredUser } from "../store/rows.js";
import type { Permitted } from "./access.js";

/** A validated `PATCH` of a user, allowed by the permission check. */
export interface UserUpdate {
  readonly entity: EntityModel;
  readonly id: string;
  readonly access: Permitted;
  readonly values: Record<string, unknown>;
  /** `currentPassword` as sent, if it was. */
  readonly currentPassword: unknown;
}

/**
 * `PATCH /api/<auth>/<id>`: the guards of docs/api.md#permissions on the user as it is, the current password
 * for an own password or email change, then the write; that change answers with fresh tokens
 * (access and refresh) for the session that made it, the user's other sessions revoked.
 */
export async function updateUser(context: RouteContext, services: AuthServices, request: ApiRequest, update: UserUpdate): Promise<Reply> {
  const user = await context.store.findUser(update.entity, update.id);
  if (!user) throw new ApiError("NOT_FOUND");
  await checkUserUpdate(context, services, request, user, update);
  const { record, renewed } = await writeUser(context, services, user, { ...update, events: requestEvents(context, services, request) });
  // A new address is unconfirmed (written so above); under verifyEmail it is sent a link, after the answer.
  if (credentialChanges(user, update.values).email && services.auth.verifyEmail) services.mail?.send("verify", record);
  const item = serializeRecord(update.entity, record);
  if (!changesOwnCredentials(update.access.caller, user, update.values)) return json(200, { item });
  // The kept session was refreshed meanwhile (its refresh token spent): the change starts a new one.
  const issued = renewed ?? (await startSession(context, services, record, request));
  const transport = update.access.credential === "cookie" ? "cookie" : "body";
  return signedInReply(services, 200, { item, ...(await sessionTokens(services, record, issued)) }, transport);
}

/** Ownership, field guards, setup-role protection, credential writers and the current password, in that order. */
async function checkUserUpdate(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  user: StoredUser,
  { entity, access, values, currentPassword }: UserUpdate,
): Promise<void> {
  const { auth } = services;
  enforce(checkOwnership(entity, access, user));
  enforce(checkFieldGuards(auth, entity, access.caller, values));
  enforce(checkSetupRoleUser(auth, access.caller, user, "update"));
  if (access.credential === "api-key") enforce(checkKeyUserUpdate(user, values));
  enforce(checkCredentialWriter(auth, access.caller, user, values));
  // Another user's password or email, or the setup role: what a stolen session would keep as a sign-in of its own.
  if (access.caller && access.session && grantsSignIn(auth, access.caller, user, values)) {
    await checkRecentSignIn(context, services, request, { user: access.caller, session: access.session }, currentPassword);
  }
  if (!changesOwnCredentials(access.caller, user, values)) return;
  // Checked under login throttling: wrong answers count as failed logins for the user's email.
  const confirmed =
    typeof currentPassword === "string" &&
    (await checkPassword(context, services, request, { email: user.email, password: currentPassword, user }));
  enforce(checkCurrentPassword(confirmed));
}

/**
 * The events of a user's change, from the row as it is in the change's transaction:
 * `password.changed`, `email.changed` (the new address, the old one in `detail`), `role.changed`.
 */
function changeEvents(current: StoredRecord, update: UserUpdate): EventDraft[] {
  const { values, access } = update;
  const by = { actorId: access.caller?.id ?? null, sessionId: access.session?.id ?? null };
  const about = { userId: current.id, email: String(current.email), ...by };
  const changes = credentialChanges(current, values);
  const drafts: EventDraft[] = [];
  if (changes.password) drafts.push({ type: "password.changed", ...about });
  if (changes.email) drafts.push({ type: "email.changed", ...about, email: String(values.email), detail: { previousEmail: about.email } });
  const role = (current.role as string | null) ?? null;
  if (Object.hasOwn(values, "role") && (values.role ?? null) !== role) {
    drafts.push({ type: "role.changed", ...about, detail: { from: role, to: (values.role as string | null) ?? null } });
  }
  return drafts;
}

/**
 * A password the setup role sets for another user is a recovery (docs/security.md#sensitive-actions):
 * every API key of that user goes with their sessions, one `api_key.revoked` event each.
 */
function keysRevokedBy(services: AuthServices, trx: Kysely<AnyDB>, current: StoredRecord, update: UserUpdate): Promise<EventDraft[]> {
  const { caller, session } = update.access;
  if (!credentialChanges(current, update.values).password || caller === null || caller.id === current.id) return Promise.resolve([]);
  const subject = { userId: current.id, email: String(current.email), actorId: caller.id, sessionId: session?.id ?? null };
  return services.apiKeys.revokeEvery(trx, subject, "password_set_by_admin");
}

/**
 * Hashes a new password, then writes; a role, password or email change retires the user's tokens
 * and revokes their sessions in the same transaction, but the one that changed its own password or
 * email, which gets a new refresh token; its events commit with it.
 */
async function writeUser(
  context: RouteContext,
  services: AuthServices,
  user: StoredUser,
  update: UserUpdate & { readonly events: RequestEvents },
): Promise<{ record: StoredUser; renewed: IssuedRefresh | undefined }> {
  const { entity, id, values, access } = update;
  const { setupRole } = services.auth;
  const { password, ...changes } = values;
  const credentials = credentialChanges(user, values);
  const passwordHash = credentials.password ? { passwordHash: await services.hasher.hash(password as string) } : {};
  const roleChanges = Object.hasOwn(values, "role") && (values.role ?? null) !== user.role;
  const revokes = credentials.password || credentials.email || roleChanges;
  const kept = changesOwnCredentials(access.caller, user, values) ? access.session : null;
  let renewed: IssuedRefresh | undefined;
  let record: StoredRecord | undefined;
  try {
    record = await context.store.update(
      entity,
      id,
      { ...changes, ...passwordHash, ...(credentials.email ? { emailVerified: 0 } : {}) },
      {
        refs: refTargetsOf(context.model, entity, changes),
        bumpTokenVersion: revokes,
        guard: async (trx, current) => {
          // Decided on the row as it is inside the transaction, not as it was read before it.
          if (removesSetupRoleHolder(services.auth, current, { values })) {
            enforce(checkLastAdmin(await context.store.countWithRole(trx, entity, setupRole)));
          }
          if (!revokes) return;
          const now = services.sessions.now();
          await services.sessions.store.revokeAllOf(id, now, { trx, ...(kept ? { except: kept.id } : {}) });
          if (kept) renewed = await services.sessions.renew(kept, { now, trx });
          for (const draft of changeEvents(current, update)) await update.events.write(trx, draft);
          for (const draft of await keysRevokedBy(services, trx, current, update)) await update.events.write(trx, draft);
        },
      },
    );
  } catch (error) {
    throw storeError(error, { isAuthEntity: true });
  }
  if (!record) throw new ApiError("NOT_FOUND");
  return { record: toStoredUser(record), renewed };
}
