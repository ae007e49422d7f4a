import type { Kysely } from "kysely";
import type { EntityModel } from "../config/index.js";
import { entityColumns } from "./columns.js";
import type { AnyDB, Database } from "./database.js";
import { ORGANIZATION_TABLES } from "./organization-tables.js";
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

/** What a read that joins an organization (docs/organizations.md) learns of it: `null` when it does not exist; the user's role in it, `null` when not a member. */
export interface OrganizationAccessRow {
  readonly role: string | null;
}

/**
 * A credential read together with its user, compiled once: its SQL (one parameter, the key; two
 * with `organization`, the organization's id first) and how a row is read back.
 */
export interface CredentialUserRead {
  readonly sql: string;
  /** The user of a row, as a credential check sees them: every column but the password hash. */
  userOf(row: Record<string, unknown>): SignedInUser;
  /** A credential column of a row. */
  credentialOf(row: Record<string, unknown>, column: string): unknown;
  /** With `organization`: the organization of the read and the user's role in it. */
  organizationOf(row: Record<string, unknown>): OrganizationAccessRow | null;
}

/** The columns the organization's part of a read comes back in: `$` is in no field's name. */
const ORGANIZATION_ID_COLUMN = "da$organization";
const ORGANIZATION_ROLE_COLUMN = "da$role";

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
  options: { readonly organization?: boolean } = {},
): CredentialUserRead {
  const userColumns = ["id", "createdAt", "updatedAt", ...entityColumns(entity, database.dialect).map((column) => column.name)].filter(
    (name) => name !== "passwordHash",
  );
  let query = db
    .selectFrom(`${join.table} as c`)
    .innerJoin(`${entity.table} as u`, "u.id", "c.userId")
    .select(userColumns.map((column) => `u.${column}`))
    .select(join.columns.map((column) => `c.${column} as ${join.prefix}${column}`));
  if (options.organization) {
    // The organization a request names and the user's membership of it, in the same read (by primary keys).
    query = query
      .leftJoin(`${ORGANIZATION_TABLES.organizations} as o`, (on) => on.on("o.id", "=", ""))
      .leftJoin(`${ORGANIZATION_TABLES.memberships} as m`, (on) => on.onRef("m.organizationId", "=", "o.id").onRef("m.userId", "=", "u.id"))
      .select([`o.id as ${ORGANIZATION_ID_COLUMN}`, `m.role as ${ORGANIZATION_ROLE_COLUMN}`]);
  }
  const compiled = query.where(`c.${join.keyColumn}`, "=", "").compile();
  if (compiled.parameters.length !== (options.organization ? 2 : 1))
    throw new Error(`unexpected parameters of the credential read of ${join.table}`);
  const sql = compiled.sql;
  return {
    sql,
    userOf(row) {
      const record: Record<string, unknown> = {};
      for (const column of userColumns) record[column] = row[column];
      return toSignedInUser(fromRow(entity, record as StoredRecord));
    },
    credentialOf: (row, column) => row[`${join.prefix}${column}`],
    organizationOf(row) {
      if (row[ORGANIZATION_ID_COLUMN] === null || row[ORGANIZATION_ID_COLUMN] === undefined) return null;
      const role = row[ORGANIZATION_ROLE_COLUMN];
      return { role: typeof role === "string" ? role : null };
    },
  };
}
