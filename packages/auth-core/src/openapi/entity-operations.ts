import type { DomainModel, EntityModel } from "../config/index.js";
import type { Operation } from "../config/vocabulary.js";
import { ORGANIZATIONS_PATH } from "../endpoints/api-paths.js";
import { type JsonSchema, objectOf, recordSchemaNames, ref } from "../endpoints/json-schema.js";
import type { ErrorCode } from "../http/errors.js";
import { summarizePermission } from "../policy/permission-summary.js";
import { TOKEN_PROPERTIES } from "./auth-operations.js";
import { listParametersOf } from "./list-parameters.js";
import type { OperationSpec } from "./operation.js";
import { pageSchema as pageSchemaOf, recordBodySchema, recordSchema as recordSchemaOf } from "./records.js";

/** One operation on every entity's records: a row of {@link ENTITY_OPERATIONS}. */
interface EntityOperation {
  readonly operation: Operation;
  readonly method: OperationSpec["method"];
  readonly item: boolean;
  readonly operationId: (entity: EntityModel) => string;
  readonly summary: (entity: EntityModel) => string;
  readonly description?: string;
  readonly parameters?: (entity: EntityModel) => readonly JsonSchema[];
  readonly body?: (entity: EntityModel) => JsonSchema;
  readonly success: { readonly status: number; readonly description: string; readonly schema?: (entity: EntityModel) => JsonSchema };
  readonly errors: (entity: EntityModel) => readonly ErrorCode[];
}

const ITEM = (entity: EntityModel): JsonSchema => objectOf({ item: ref(recordSchemaNames(entity).record) });

/** A user's update answers with fresh tokens when the caller changed their own password or email (docs/api.md#permissions). */
function updatedItem(entity: EntityModel): JsonSchema {
  if (!entity.isAuthEntity) return ITEM(entity);
  return {
    type: "object",
    properties: { item: ref(recordSchemaNames(entity).record), ...TOKEN_PROPERTIES },
    required: ["item"],
    additionalProperties: false,
    description: "The tokens come only when the caller changed their own password or email; the session that did it stays signed in.",
  };
}

const conflict = (entity: EntityModel): ErrorCode => (entity.isAuthEntity ? "EMAIL_TAKEN" : "CONFLICT");

/** The five operations on an entity's records (docs/api.md#entity-endpoints). */
const ENTITY_OPERATIONS: readonly EntityOperation[] = [
  {
    operation: "read",
    method: "get",
    item: false,
    operationId: (entity) => `list${entity.name}`,
    summary: (entity) => `List ${entity.name} records`,
    description:
      "Ordered by `createdAt`, then `id`, unless `sort` names another order. `q` searches the `string` fields, `where.<field>` filters; they combine.",
    parameters: listParametersOf,
    success: {
      status: 200,
      description: "A page of the records the caller may read",
      schema: (entity) => ref(recordSchemaNames(entity).page),
    },
    errors: () => ["FORBIDDEN", "INVALID_QUERY"],
  },
  {
    operation: "create",
    method: "post",
    item: false,
    operationId: (entity) => `create${entity.name}`,
    summary: (entity) => `Create a ${entity.name}`,
    description: "The owner field, if any, is set to the caller. Declared defaults fill absent keys.",
    body: (entity) => recordBodySchema(entity, "create"),
    success: { status: 201, description: "The new record", schema: ITEM },
    errors: (entity) => [
      "FORBIDDEN",
      conflict(entity),
      "CONFLICT",
      ...(entity.isAuthEntity ? (["REAUTHENTICATION_REQUIRED", "TOO_MANY_ATTEMPTS"] as const) : []),
    ],
  },
  {
    operation: "read",
    method: "get",
    item: true,
    operationId: (entity) => `read${entity.name}`,
    summary: (entity) => `Read a ${entity.name}`,
    success: { status: 200, description: "The record", schema: ITEM },
    errors: () => ["FORBIDDEN", "NOT_FOUND"],
  },
  {
    operation: "update",
    method: "patch",
    item: true,
    operationId: (entity) => `update${entity.name}`,
    summary: (entity) => `Update a ${entity.name}`,
    description: "Partial: absent keys are kept; `null` clears an optional field.",
    body: (entity) => recordBodySchema(entity, "update"),
    success: { status: 200, description: "The record as updated", schema: updatedItem },
    errors: (entity) => [
      "FORBIDDEN",
      "NOT_FOUND",
      conflict(entity),
      "CONFLICT",
      ...(entity.isAuthEntity ? (["LAST_ADMIN", "REAUTHENTICATION_REQUIRED", "TOO_MANY_ATTEMPTS"] as const) : []),
    ],
  },
  {
    operation: "delete",
    method: "delete",
    item: true,
    operationId: (entity) => `delete${entity.name}`,
    summary: (entity) => `Delete a ${entity.name}`,
    description: "Optional references to it become `null`; a required one makes it 409 `CONFLICT`.",
    success: { status: 204, description: "Deleted" },
    errors: (entity) => ["FORBIDDEN", "NOT_FOUND", "CONFLICT", ...(entity.isAuthEntity ? (["LAST_ADMIN"] as const) : [])],
  },
];

/** The operations on a domain's records, entity by entity. */
/**
 * An operation's body; a user created by the setup role where the server sends e-mail may come
 * without a password: they are invited to choose one (docs/mail.md).
 */
function bodyOf(row: EntityOperation, entity: EntityModel, invitations: boolean): JsonSchema {
  const schema = (row.body as (entity: EntityModel) => JsonSchema)(entity);
  if (!(invitations && entity.isAuthEntity && row.operation === "create")) return schema;
  const properties = schema.properties as Record<string, JsonSchema>;
  return {
    ...schema,
    required: (schema.required as string[]).filter((name) => name !== "password"),
    properties: {
      ...properties,
      password: {
        ...properties.password,
        description:
          `${String(properties.password?.description ?? "")} The setup role may leave it out: the new user is e-mailed an invitation to choose one.`.trim(),
      },
    },
  };
}

/** A tenant entity's operations are under their organization (docs/organizations.md). */
const ORGANIZATION_ID_PARAMETER: JsonSchema = {
  name: "orgId",
  in: "path",
  required: true,
  schema: { type: "string" },
  description: "The organization's id: its records only; 404 where the caller is not a member (or not otherwise allowed).",
};

export function entityOperationSpecs(model: DomainModel, options: { readonly invitations?: boolean } = {}): OperationSpec[] {
  const open = !model.hasAuth;
  return model.entities.flatMap((entity) =>
    ENTITY_OPERATIONS.map((row): OperationSpec => {
      const declared = row.errors(entity).filter((code) => !(open && code === "FORBIDDEN"));
      // Under an organization the caller is not in, every operation is 404.
      const errors = entity.tenant && !declared.includes("NOT_FOUND") ? [...declared, "NOT_FOUND" as const] : declared;
      return {
        method: row.method,
        path: entity.tenant
          ? `${ORGANIZATIONS_PATH}/{orgId}/${entity.segment}${row.item ? "/{id}" : ""}`
          : row.item
            ? `/api/${entity.segment}/{id}`
            : `/api/${entity.segment}`,
        operationId: row.operationId(entity),
        tag: entity.name,
        summary: row.summary(entity),
        ...(row.description ? { description: row.description } : {}),
        access: summarizePermission(entity, row.operation, { open }),
        apiKey: !open,
        parameters: [
          ...(entity.tenant ? [ORGANIZATION_ID_PARAMETER] : []),
          ...(row.item
            ? [{ name: "id", in: "path", required: true, schema: { type: "string" }, description: `The ${entity.name}'s id.` }]
            : []),
          ...(row.parameters?.(entity) ?? []),
        ],
        ...(row.body ? { body: bodyOf(row, entity, options.invitations === true) } : {}),
        success: {
          status: row.success.status,
          description: row.success.description,
          ...(row.success.schema ? { schema: row.success.schema(entity) } : {}),
        },
        errors,
      };
    }),
  );
}

/**
 * The schemas of each entity: its record and a page of a list. Bodies stay inline in their
 * operations, where generators such as openapi-typescript read a `default` as "may be left out".
 */
export function entitySchemas(model: DomainModel): Record<string, JsonSchema> {
  return Object.fromEntries(
    model.entities.flatMap((entity) => {
      const names = recordSchemaNames(entity);
      return [
        [names.record, recordSchemaOf(entity)],
        [names.page, pageSchemaOf(entity)],
      ];
    }),
  );
}
