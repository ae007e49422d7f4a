import type { EntityModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import { dataFields } from "../store/columns.js";

/**
 * The one way a record leaves the service: `id`, its data fields, `createdAt`, `updatedAt`, on
 * the auth entity `emailVerified`, on a tenant entity `organizationId`. Never `password`, `passwordHash`, `tokenVersion` or any other
 * internal column.
 */
export function serializeRecord(entity: EntityModel, record: Record<string, unknown>): Record<string, unknown> {
  const output: Record<string, unknown> = { id: record.id };
  for (const field of dataFields(entity)) {
    if (field.name === "password") continue;
    output[field.name] = record[field.name] ?? null;
  }
  if (entity.tenant) output[ORGANIZATION_ID_FIELD] = record[ORGANIZATION_ID_FIELD] ?? null;
  if (entity.isAuthEntity) output.emailVerified = Number(record.emailVerified) === 1;
  output.createdAt = record.createdAt;
  output.updatedAt = record.updatedAt;
  return output;
}
