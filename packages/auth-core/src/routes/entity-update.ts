import type { EntityModel } from "../config/index.js";
import type { RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { readJsonObject } from "../http/body.js";
import { ApiError, enforce } from "../http/errors.js";
import { json, type Reply } from "../http/responses.js";
import { storeError } from "../http/store-errors.js";
import { checkFieldGuards } from "../policy/field-guards.js";
import { type Access, checkOwnership } from "../policy/ownership.js";
import { parseRecordBody } from "../records/parse-body.js";
import { serializeRecord } from "../records/serialize.js";
import type { RecordScope } from "../store/record-store.js";
import { refTargetsOf } from "../store/references.js";
import { permit } from "./access.js";
import { checkRefs } from "./refs.js";
import { checkRoleValue } from "./role-value.js";
import { updateUser } from "./user-update.js";

/**
 * `PATCH /api/<segment>/<id>`: a partial update, with the guards of docs/api.md#permissions in the order of
 * docs/api.md#errors-in-the-order-they-are-checked: permission, body, record exists, ownership and field guards, conflicts.
 */
export async function updateRecord(
  context: RouteContext,
  request: ApiRequest,
  entity: EntityModel,
  id: string,
  within: RecordScope = {},
): Promise<Reply> {
  const access = await permit(context, request, entity, "update", within);
  const extraKeys = entity.isAuthEntity ? ["currentPassword"] : [];
  const { currentPassword, ...values } = parseRecordBody(entity, await readJsonObject(request), "update", { extraKeys });
  checkRoleValue(context, entity, values);
  await checkRefs(context, entity, values, within.organizationId);
  const services = context.services;
  if (entity.isAuthEntity && services) return updateUser(context, services, request, { entity, id, access, values, currentPassword });
  return updateOtherRecord(context, entity, id, { ...access, ...within }, values);
}

/** Updates a record of an entity other than the auth entity (or of any entity under `auth.type: none`). */
async function updateOtherRecord(
  context: RouteContext,
  entity: EntityModel,
  id: string,
  access: Access & RecordScope,
  values: Record<string, unknown>,
): Promise<Reply> {
  const auth = context.services?.auth ?? null;
  // One transaction: the record is read (and locked) once, and checked as it is when written.
  try {
    const record = await context.store.update(entity, id, values, {
      ...(access.organizationId === undefined ? {} : { organizationId: access.organizationId }),
      refs: refTargetsOf(context.model, entity, values, access.organizationId),
      guard: async (_trx, current) => {
        enforce(checkOwnership(entity, access, current));
        enforce(checkFieldGuards(auth, entity, access.caller, values));
      },
    });
    if (!record) throw new ApiError("NOT_FOUND");
    return json(200, { item: serializeRecord(entity, record) });
  } catch (error) {
    throw storeError(error, { isAuthEntity: false });
  }
}
