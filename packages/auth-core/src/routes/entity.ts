import type { EntityModel, Operation } from "../config/index.js";
import type { RouteContext } from "../context.js";
import { readJsonObject } from "../http/body.js";
import { ApiError } from "../http/errors.js";
import { json, jsonWithToken, noContent } from "../http/responses.js";
import { authorize, type Caller, type Decision, ownsRecord } from "../policy/authorize.js";
import { parseRecordBody } from "../records/parse-body.js";
import { serializeRecord } from "../records/serialize.js";
import { MissingRefError, referrersOf, refTargetsOf } from "../store/references.js";
import type { StoredRecord } from "../store/rows.js";
import { authenticate, invalidTokenError } from "./authenticate.js";
import { checkPassword } from "./credentials.js";
import { checkRefs, referenceError } from "./refs.js";
import { createUser, signedInBody, storeError } from "./users.js";

type Allowed = Extract<Decision, { allowed: true }>;

async function permit(
  context: RouteContext,
  request: Request,
  entity: EntityModel,
  operation: Operation,
): Promise<{ caller: Caller; decision: Allowed }> {
  const authenticated = await authenticate(context, request);
  const caller = authenticated?.caller ?? null;
  const decision = authorize(entity, operation, caller, { open: context.services === null });
  if (!decision.allowed) {
    throw decision.status === 401
      ? new ApiError("UNAUTHENTICATED", { headers: { "www-authenticate": "Bearer" } })
      : new ApiError("FORBIDDEN");
  }
  return { caller, decision };
}

function isSetupRole(context: RouteContext, caller: Caller): boolean {
  return context.services !== null && caller !== null && caller.role === context.services.auth.setupRole;
}

function forbidden(message: string): ApiError {
  return new ApiError("FORBIDDEN", { message });
}

function integerParam(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ApiError("INVALID_QUERY", { issues: [{ path: [name], message: `must be a whole number from ${min} to ${max}` }] });
  }
  return value;
}

/** On the auth entity, a `role` sent must be a declared role (or the setup role, or `null`): part of body validation. */
function checkRole(context: RouteContext, entity: EntityModel, values: Record<string, unknown>): void {
  const auth = context.services?.auth;
  if (!auth || !entity.isAuthEntity || !Object.hasOwn(values, "role")) return;
  const role = values.role as string | null;
  if (role === null || role === auth.setupRole || auth.roles.includes(role)) return;
  const allowed = auth.roles.length > 0 ? auth.roles : [auth.setupRole];
  throw new ApiError("INVALID_BODY", { issues: [{ path: ["role"], message: `must be one of ${allowed.join(", ")}, or null` }] });
}

function guardProtectedFields(context: RouteContext, entity: EntityModel, caller: Caller, values: Record<string, unknown>): void {
  if (isSetupRole(context, caller) || context.services === null) return;
  const guarded = [entity.isAuthEntity ? "role" : null, entity.ownerField].filter((name): name is string => name !== null);
  const sent = guarded.find((name) => Object.hasOwn(values, name));
  if (sent) throw forbidden(`Only the ${context.services.auth.setupRole} role may set '${sent}'`);
}

/** `GET /api/<segment>`: a page of the records the caller may read. */
export async function listRecords(context: RouteContext, request: Request, entity: EntityModel): Promise<Response> {
  const { caller, decision } = await permit(context, request, entity, "read");
  const url = new URL(request.url);
  const limit = integerParam(url, "limit", 20, 1, 100);
  const offset = integerParam(url, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
  const ownedBy = decision.scope === "own" ? caller?.id : undefined;
  const { rows, total } = await context.store.list(entity, { limit, offset, ...(ownedBy ? { ownedBy } : {}) });
  return json(200, { items: rows.map((row) => serializeRecord(entity, row)), total });
}

/** `GET /api/<segment>/<id>`. */
export async function readRecord(context: RouteContext, request: Request, entity: EntityModel, id: string): Promise<Response> {
  const { caller, decision } = await permit(context, request, entity, "read");
  const record = await context.store.find(entity, id);
  if (!record) throw new ApiError("NOT_FOUND");
  if (decision.scope === "own" && !ownsRecord(entity, record, caller)) throw forbidden("You can only read your own records");
  return json(200, { item: serializeRecord(entity, record) });
}

/** `POST /api/<segment>`: creates a record owned by the caller. */
export async function createRecord(context: RouteContext, request: Request, entity: EntityModel): Promise<Response> {
  const { caller } = await permit(context, request, entity, "create");
  const values = parseRecordBody(entity, await readJsonObject(request), "create");
  checkRole(context, entity, values);
  await checkRefs(context, entity, values);
  guardProtectedFields(context, entity, caller, values);

  const services = context.services;
  if (entity.isAuthEntity && services) {
    const role = Object.hasOwn(values, "role") ? ((values.role as string | null) ?? null) : services.auth.defaultRole;
    const { role: _ignored, ...fields } = values;
    const user = await createUser(context, services, fields, { role, setup: "mark-complete" });
    return json(201, { item: serializeRecord(entity, user) });
  }

  const defaults = Object.fromEntries(
    entity.fields
      .filter((field) => field.default !== undefined && !Object.hasOwn(values, field.name))
      .map((field) => [field.name, field.type === "datetime" ? new Date(String(field.default)).toISOString() : field.default]),
  );
  // The owner is the caller, unless a caller allowed past the field guard (the setup role) names one.
  const ownerField = entity.ownerField;
  const owner = ownerField && !Object.hasOwn(values, ownerField) ? { [ownerField]: caller?.id ?? null } : {};
  const record = { ...defaults, ...values, ...owner };
  try {
    const inserted = await context.store.insert(entity, record, { refs: refTargetsOf(context.model, entity, record) });
    return json(201, { item: serializeRecord(entity, inserted) });
  } catch (error) {
    // The owner filled in is the caller: when that user is gone now, so is the token's standing.
    const callerGone = error instanceof MissingRefError && error.missing.some((ref) => Object.hasOwn(owner, ref.field));
    throw callerGone ? invalidTokenError() : storeError(error, { isAuthEntity: false });
  }
}

/** `PATCH /api/<segment>/<id>`: a partial update, with the field guards of CONTRACT 5. */
export async function updateRecord(context: RouteContext, request: Request, entity: EntityModel, id: string): Promise<Response> {
  const { caller, decision } = await permit(context, request, entity, "update");
  const services = context.services;
  const extraKeys = entity.isAuthEntity ? ["currentPassword"] : [];
  const { currentPassword, ...values } = parseRecordBody(entity, await readJsonObject(request), "update", { extraKeys });
  checkRole(context, entity, values);
  await checkRefs(context, entity, values);

  if (!entity.isAuthEntity || !services) {
    // One transaction: the record is read (and locked) once, and checked as it is when written.
    try {
      const record = await context.store.update(entity, id, values, {
        refs: refTargetsOf(context.model, entity, values),
        guard: async (_trx, current) => {
          if (decision.scope === "own" && !ownsRecord(entity, current, caller)) throw forbidden("You can only change your own records");
          guardProtectedFields(context, entity, caller, values);
        },
      });
      if (!record) throw new ApiError("NOT_FOUND");
      return json(200, { item: serializeRecord(entity, record) });
    } catch (error) {
      throw storeError(error, { isAuthEntity: false });
    }
  }

  const existing = await context.store.find(entity, id);
  if (!existing) throw new ApiError("NOT_FOUND");
  if (decision.scope === "own" && !ownsRecord(entity, existing, caller)) throw forbidden("You can only change your own records");
  guardProtectedFields(context, entity, caller, values);

  const self = caller?.id === id;
  const admin = isSetupRole(context, caller);
  if (existing.role === services.auth.setupRole && !admin) throw forbidden(`Only the ${services.auth.setupRole} role may change this user`);
  if ((Object.hasOwn(values, "password") || Object.hasOwn(values, "email")) && !self && !admin)
    throw forbidden("Only the user or an administrator may change this");
  const changesPassword = Object.hasOwn(values, "password");
  // Tokens carry the email too: a new one retires them, like a new password or role.
  const emailChanges = Object.hasOwn(values, "email") && values.email !== existing.email;
  if (self && (changesPassword || emailChanges)) {
    // A stolen token alone must never take the account over; wrong answers count as failed logins.
    const confirmed =
      typeof currentPassword === "string" &&
      (await checkPassword(context, services, request, { email: existing.email as string, password: currentPassword, user: existing }));
    if (!confirmed) throw forbidden("Changing your password or email needs your current password in 'currentPassword'");
  }

  const { password, ...fields } = values;
  const changes: Record<string, unknown> = { ...fields };
  if (changesPassword) changes.passwordHash = await services.hasher.hash(password as string);
  const setupRole = services.auth.setupRole;
  const roleChanges = Object.hasOwn(values, "role") && (values.role ?? null) !== (existing.role ?? null);
  const leavesSetupRole = Object.hasOwn(values, "role") && values.role !== setupRole;
  let record: StoredRecord | undefined;
  try {
    record = await context.store.update(entity, id, changes, {
      refs: refTargetsOf(context.model, entity, changes),
      bumpTokenVersion: changesPassword || roleChanges || emailChanges,
      guard: async (trx, current) => {
        // Decided on the row as it is inside the transaction, not as it was read before it.
        if (leavesSetupRole && current.role === setupRole && (await context.store.countWithRole(trx, entity, setupRole)) <= 1) {
          throw new ApiError("LAST_ADMIN");
        }
      },
    });
  } catch (error) {
    throw storeError(error, { isAuthEntity: true });
  }
  if (!record) throw new ApiError("NOT_FOUND");
  const item = serializeRecord(entity, record);
  if (!(self && (changesPassword || emailChanges))) return json(200, { item });
  const { user: _profile, ...token } = await signedInBody(services, record);
  return jsonWithToken(200, { item, ...token });
}

/**
 * `DELETE /api/<segment>/<id>`. Optional `ref`s (owner fields included) that point at the record
 * become `null` in the same transaction; a required one makes it 409 `CONFLICT`, changing nothing.
 */
export async function deleteRecord(context: RouteContext, request: Request, entity: EntityModel, id: string): Promise<Response> {
  const { caller, decision } = await permit(context, request, entity, "delete");
  const services = context.services;
  const setupRole = entity.isAuthEntity ? services?.auth.setupRole : undefined;
  // One transaction: the record is read (and locked) once, and checked as it is when deleted.
  const removed = await context.store
    .remove(entity, id, {
      referrers: referrersOf(context.model, entity),
      guard: async (trx, current) => {
        if (decision.scope === "own" && !ownsRecord(entity, current, caller)) throw forbidden("You can only delete your own records");
        if (setupRole === undefined || current.role !== setupRole) return;
        if (!isSetupRole(context, caller)) throw forbidden(`Only the ${setupRole} role may delete this user`);
        if ((await context.store.countWithRole(trx, entity, setupRole)) <= 1) throw new ApiError("LAST_ADMIN");
      },
    })
    .catch((error: unknown) => {
      throw referenceError(error);
    });
  if (!removed) throw new ApiError("NOT_FOUND");
  return noContent();
}
