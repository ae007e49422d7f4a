import type { EntityModel } from "../config/index.js";

/**
 * The declared defaults of the fields `values` leaves out, as stored (a `datetime` default as an
 * ISO 8601 instant, like a `datetime` sent in a body). Applied on create only (docs/api.md#entity-endpoints).
 */
export function defaultsFor(entity: EntityModel, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    entity.fields
      .filter((field) => field.default !== undefined && !Object.hasOwn(values, field.name))
      .map((field) => [field.name, field.type === "datetime" ? new Date(String(field.default)).toISOString() : field.default]),
  );
}
