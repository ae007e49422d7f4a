import type { Kysely } from "kysely";
import type { EntityModel } from "../config/index.js";
import { entityColumns } from "./columns.js";
import type { AnyDB, Database } from "./database.js";
import { fromRow, type SignedInUser, type StoredRecord, toSignedInUser } from "./rows.js";

/** How a credential's table is joined with its user's in {@link credentialUserRead}. */
export interface CredentialJoin {
  /** The credential's table (`domain_auth_sessions`, `domain_auth_api_keys`). */
  readonly table: string;
  /** The credential's columns read with the user, each as `<prefix><column>` so no user column is shadowed. */
  readonly columns: readonly string[];
  /** The column the read is keyed by (a session's `id`, a key's `keyHash`). */
  readonly keyColumn: string;
  readonly prefix: string;
}

/** A credential read together with its user, compiled once: its SQL (one parameter, the key) and how a row is read back. */
export interface CredentialUserRead {
  readonly sql: string;
  /** The user of a row, as a credential check sees them: every column but the password hash. */
  userOf(row: Record<string, unknown>): SignedInUser;
  /** A credential column of a row. */
  credentialOf(row: Record<string, unknown>, column: string): unknown;
}

/**
 * The one read of a credential check (docs/api.md#login): the credential's row and its user's, by the
 * credential's key, with every user column but the password hash. Compiled once per entity, so a
 * check runs a prepared statement with no query building.
 */
export function credentialUserRead(
  db: Kysely<AnyDB>,
  database: Pick<Database, "dialect">,
  entity: EntityModel,
  join: CredentialJoin,
): CredentialUserRead {
  const userColumns = ["id", "createdAt", "updatedAt", ...entityColumns(entity, database.dialect).map((column) => column.name)].filter(
    (name) => name !== "passwordHash",
  );
  const sql = db
    .selectFrom(`${join.table} as c`)
    .innerJoin(`${entity.table} as u`, "u.id", "c.userId")
    .select(userColumns.map((column) => `u.${column}`))
    .select(join.columns.map((column) => `c.${column} as ${join.prefix}${column}`))
    .where(`c.${join.keyColumn}`, "=", "")
    .compile().sql;
  return {
    sql,
    userOf(row) {
      const record: Record<string, unknown> = {};
      for (const column of userColumns) record[column] = row[column];
      return toSignedInUser(fromRow(entity, record as StoredRecord));
    },
    credentialOf: (row, column) => row[`${join.prefix}${column}`],
  };
}
