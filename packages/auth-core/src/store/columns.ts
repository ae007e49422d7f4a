import type { EntityModel, FieldModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";

/** A whole number as wide as a time in milliseconds needs: 64 bits on PostgreSQL (SQLite's integers always are). */
export function timeColumn(dialect: "sqlite" | "postgres"): "bigint" | "integer" {
  return dialect === "postgres" ? "bigint" : "integer";
}

/** The SQL column type of a field on each dialect. */
export function columnType(
  field: Pick<FieldModel, "type">,
  dialect: "sqlite" | "postgres",
): "text" | "integer" | "bigint" | "real" | "double precision" {
  switch (field.type) {
    case "integer":
      return timeColumn(dialect);
    case "number":
      return dialect === "postgres" ? "double precision" : "real";
    case "boolean":
      return "integer";
    default:
      return "text";
  }
}

/** A column to create: name, SQL type and whether it must be present. */
export interface ColumnSpec {
  readonly name: string;
  readonly type: ReturnType<typeof columnType>;
  readonly notNull: boolean;
}

/** The columns an entity's table holds, besides `id`, `createdAt` and `updatedAt`. */
export function entityColumns(entity: EntityModel, dialect: "sqlite" | "postgres"): ColumnSpec[] {
  const columns: ColumnSpec[] = [];
  for (const field of entity.fields) {
    if (entity.isAuthEntity && field.name === "password") continue;
    columns.push({ name: field.name, type: columnType(field, dialect), notNull: entity.isAuthEntity && field.name === "email" });
  }
  // The organization a tenant record belongs to (docs/organizations.md): set from the path, never from a body.
  if (entity.tenant) columns.push({ name: ORGANIZATION_ID_FIELD, type: "text", notNull: true });
  if (entity.isAuthEntity) {
    columns.push({ name: "passwordHash", type: "text", notNull: true });
    columns.push({ name: "tokenVersion", type: "integer", notNull: true });
    // The current address is confirmed; some address ever was (docs/mail.md). 0 or 1.
    columns.push({ name: "emailVerified", type: "integer", notNull: true });
    columns.push({ name: "everVerified", type: "integer", notNull: true });
  }
  return columns;
}

/** The fields of an entity that are stored and returned as data (not the auth entity's password). */
export function dataFields(entity: EntityModel): readonly FieldModel[] {
  return entity.isAuthEntity ? entity.fields.filter((field) => field.name !== "password") : entity.fields;
}

/** Name of the unique index of a column: `<table>__<column>__unique` (the column is read back from it). */
export function uniqueIndexName(table: string, column: string): string {
  return `${table}__${column}__unique`;
}

/** Name of the index on a `ref` column, which finds the records that point at a given record. */
export function refIndexName(table: string, column: string): string {
  return `${table}__${column}__ref`;
}
