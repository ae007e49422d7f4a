import { z } from "zod";

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = Record<string, unknown>;

/** An `integer` says it is whole; the bounds zod adds (the safe integers) are left out as noise. */
function withoutSafeBounds({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema.type !== "integer") return;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

/**
 * The JSON Schema of what a zod schema accepts (`z.toJSONSchema` on its input side), so the document
 * describes exactly the schema that validates requests. `ignored` names properties the schema
 * tolerates but the server ignores (`id`, `createdAt`, `updatedAt` of a record body): described as
 * `readOnly` and never required, so a validating client sends them through as the server takes them.
 */
export function inputSchemaOf(schema: z.ZodType, options: { readonly ignored?: Iterable<string> } = {}): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: withoutSafeBounds,
  }) as JsonSchema;
  const properties = json.properties as Record<string, JsonSchema> | undefined;
  for (const key of options.ignored ?? []) {
    // Sent, they are neither refused nor written (docs/api.md#entity-endpoints): a validating client must let them through.
    if (properties) properties[key] = { readOnly: true, description: "Set by the server: accepted in a body, and ignored." };
    if (Array.isArray(json.required)) json.required = json.required.filter((name) => name !== key);
  }
  return json;
}

/** The JSON Schema of what a zod schema gives (`z.toJSONSchema` on its output side): an answer, made by the server. */
export function outputSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io: "output",
    unrepresentable: "any",
    override: withoutSafeBounds,
  }) as JsonSchema;
  return json;
}

/** A reference to a schema of the document's `components`. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** An object schema whose every property is required. */
export function objectOf(properties: Record<string, JsonSchema>, options: { readonly optional?: readonly string[] } = {}): JsonSchema {
  const required = Object.keys(properties).filter((name) => !options.optional?.includes(name));
  return { type: "object", properties, required, additionalProperties: false };
}

/** `T | null`. */
export function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: "null" }] };
}

/** The names of an entity's schemas in the document's `components`: its record, and a page of a list. */
export function recordSchemaNames(entity: { readonly name: string }): { record: string; page: string } {
  return { record: entity.name, page: `${entity.name}.page` };
}
