import { timeColumn } from "./columns.js";
import type { Database } from "./database.js";
import { createTableStep, type Step } from "./migration-step.js";

/** The tables of organizations (docs/organizations.md); entity tables never start with `domain_auth_`. */
export const ORGANIZATION_TABLES = {
  organizations: "domain_auth_organizations",
  /** Who belongs to which organization, with which organization role: one row per (organization, user). */
  memberships: "domain_auth_memberships",
  /** Pending invitations by e-mail: the SHA-256 of their token, one per (organization, e-mail). */
  invitations: "domain_auth_org_invitations",
} as const;

/**
 * The organizations (`slug` unique), their memberships (keyed by organization and user, found by
 * user for the caller's list) and invitations (found by token hash; deleted when accepted, revoked
 * or replaced). Memberships and invitations go with their organization.
 */
export function organizationSteps(dialect: Database["dialect"]): Step[] {
  const time = timeColumn(dialect);
  const { organizations, memberships, invitations } = ORGANIZATION_TABLES;
  const organization = `${organizations}.id`;
  return [
    createTableStep(organizations, (table) =>
      table
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("slug", "text", (column) => column.notNull())
        .addColumn("createdAt", "text", (column) => column.notNull())
        .addColumn("updatedAt", "text", (column) => column.notNull())
        .addUniqueConstraint(`${organizations}__slug__unique`, ["slug"]),
    ),
    createTableStep(memberships, (table) =>
      table
        .addColumn("organizationId", "text", (column) => column.notNull().references(organization).onDelete("cascade"))
        .addColumn("userId", "text", (column) => column.notNull())
        .addColumn("role", "text", (column) => column.notNull())
        .addColumn("createdAt", "text", (column) => column.notNull())
        .addPrimaryKeyConstraint(`${memberships}__pk`, ["organizationId", "userId"]),
    ),
    {
      name: `create index ${memberships}__userId`,
      run: (trx) =>
        trx.schema.createIndex(`${memberships}__userId`).ifNotExists().on(memberships).columns(["userId", "createdAt"]).execute(),
    },
    {
      name: `create index ${memberships}__order`,
      run: (trx) =>
        trx.schema
          .createIndex(`${memberships}__order`)
          .ifNotExists()
          .on(memberships)
          .columns(["organizationId", "createdAt", "userId"])
          .execute(),
    },
    createTableStep(invitations, (table) =>
      table
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("organizationId", "text", (column) => column.notNull().references(organization).onDelete("cascade"))
        .addColumn("email", "text", (column) => column.notNull())
        .addColumn("role", "text", (column) => column.notNull())
        .addColumn("tokenHash", "text", (column) => column.notNull())
        .addColumn("invitedBy", "text")
        .addColumn("createdAt", "text", (column) => column.notNull())
        .addColumn("expiresAt", time, (column) => column.notNull())
        .addUniqueConstraint(`${invitations}__tokenHash__unique`, ["tokenHash"])
        .addUniqueConstraint(`${invitations}__email__unique`, ["organizationId", "email"]),
    ),
  ];
}
