import type { EntityModel } from "../config/index.js";
import { dataFields } from "../store/columns.js";

/**
 * The one way a record leaves the service: `id`, its data fields, `createdAt`, `updatedAt`.
 * Never `password`, `passwordHash`, `tokenVersion` or any other internal column.
 */
export function serializeRecord(entity: EntityModel, record: Record<string, unknown>): Record<string, unknown> {
  const output: Record<string, unknown> = { id: record.id };
  for (const field of dataFields(entity)) {
    if (field.name === "password") continue;
    output[field.name] = record[field.name] ?? null;
  }
  output.createdAt = record.createdAt;
  output.updatedAt = record.updatedAt;
  return output;
}
