import type { z } from "zod";
import type { EntityModel } from "../config/index.js";
import { parseBody } from "../http/parse.js";
import { type BodyMode, type BodySchemaOptions, bodySchema, ignoredKeysOf } from "./body-schema.js";

const cache = new WeakMap<EntityModel, Map<string, z.ZodType<Record<string, unknown>>>>();

function cachedSchema(entity: EntityModel, mode: BodyMode, options: BodySchemaOptions): z.ZodType<Record<string, unknown>> {
  const key = JSON.stringify([mode, options]);
  const schemas = cache.get(entity) ?? new Map<string, z.ZodType<Record<string, unknown>>>();
  cache.set(entity, schemas);
  const schema = schemas.get(key) ?? bodySchema(entity, mode, options);
  schemas.set(key, schema);
  return schema;
}

/**
 * Validates a request body against an entity's fields.
 *
 * @returns the values to write (ignored keys dropped).
 * @throws {ApiError} `INVALID_BODY` with one issue per problem.
 */
export function parseRecordBody(
  entity: EntityModel,
  body: Record<string, unknown>,
  mode: BodyMode,
  options: BodySchemaOptions = {},
): Record<string, unknown> {
  // A null-prototype copy: a field named like an Object.prototype member (`constructor`, `toString`)
  // must read as absent when the body does not send it, not as the inherited function.
  const input: Record<string, unknown> = Object.assign(Object.create(null), body);
  const data = parseBody(cachedSchema(entity, mode, options), input);
  const values: Record<string, unknown> = {};
  const ignored = ignoredKeysOf(entity);
  for (const [key, value] of Object.entries(data)) {
    if (!ignored.has(key) && value !== undefined) values[key] = value;
  }
  return values;
}
