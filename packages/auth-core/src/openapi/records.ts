import type { EntityModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import { inputSchemaOf, type JsonSchema, objectOf, recordSchemaNames, ref } from "../endpoints/json-schema.js";
import { bodySchema, ignoredKeysOf } from "../records/body-schema.js";
import { dataFields } from "../store/columns.js";
import { EXACT_TOTAL_LIMIT } from "../store/record-lists.js";

/** What `currentPassword` is for in a body of the auth entity (docs/security.md#sensitive-actions). */
const CURRENT_PASSWORD_USES = {
  create:
    "Your current password: needed to create a user with a password or the setup role when your session signed in longer ago than `AUTH_REAUTH_WINDOW`.",
  update:
    "Your current password: needed to change your own password or email, and to set another user's password or email or give them the setup role when your session signed in longer ago than `AUTH_REAUTH_WINDOW`.",
} as const;

/** The create or update body of an entity: the very zod schema that validates it (`bodySchema`). */
export function recordBodySchema(entity: EntityModel, mode: "create" | "update"): JsonSchema {
  const extraKeys = entity.isAuthEntity ? ["currentPassword"] : [];
  const json = inputSchemaOf(bodySchema(entity, mode, { extraKeys }), { ignored: ignoredKeysOf(entity) });
  const properties = json.properties as Record<string, JsonSchema>;
  if (properties.currentPassword) properties.currentPassword.description = CURRENT_PASSWORD_USES[mode];
  return json;
}

/**
 * A record as the serializer returns it (`serializeRecord`): `id`, every data field (`null` when
 * unset) but a password, `createdAt` and `updatedAt`, for the auth entity `emailVerified`, for a tenant entity `organizationId`. Each
 * field's schema is its create body's.
 */
export function recordSchema(entity: EntityModel): JsonSchema {
  const body = (inputSchemaOf(bodySchema(entity, "create")).properties ?? {}) as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = { id: { type: "string" } };
  for (const field of dataFields(entity)) {
    if (field.name === "password") continue;
    const { default: _default, ...schema } = body[field.name] ?? {};
    properties[field.name] = schema;
  }
  properties.createdAt = { type: "string", format: "date-time" };
  properties.updatedAt = { type: "string", format: "date-time" };
  if (entity.tenant) {
    properties[ORGANIZATION_ID_FIELD] = {
      type: "string",
      readOnly: true,
      description: "The organization it belongs to: set from the path, never moves.",
    };
  }
  if (entity.isAuthEntity) properties.emailVerified = { type: "boolean", description: "Whether the user confirmed their email address." };
  return objectOf(properties);
}

/** A page of a list: `{ items, total?, nextCursor }` (docs/api.md#lists). */
export function pageSchema(entity: EntityModel): JsonSchema {
  return objectOf(
    {
      items: { type: "array", items: ref(recordSchemaNames(entity).record) },
      total: {
        type: "integer",
        minimum: 0,
        description: `How many records the caller may read in all: always up to ${EXACT_TOTAL_LIMIT.toLocaleString("en")}, above only with \`total=exact\`.`,
      },
      nextCursor: {
        type: ["string", "null"],
        description: "Pass it as `after` for the next page; `null` on the last one.",
      },
    },
    { optional: ["total"] },
  );
}
