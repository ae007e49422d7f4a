import { timeColumn } from "./columns.js";
import type { Database } from "./database.js";
import { createTableStep, type Step } from "./migration-step.js";

/** The tables of sign-in with providers (docs/providers.md); entity tables never start with `domain_auth_`. */
export const PROVIDER_TABLES = {
  /** A user's accounts at providers: (provider, subject) unique, never the e-mail as the key. */
  identities: "domain_auth_identities",
  /** Flows started and not yet finished: the SHA-256 of their `state` and of the browser's flow cookie. */
  oauthFlows: "domain_auth_oauth_flows",
} as const;

/**
 * The identities (`subject` as the provider gives it; `email` as it gave it then, for the list) and
 * the flows (`purpose` `sign-in` or `link`, `userId`, `sessionId` and `tokenVersion` the user a link is
 * for, the session that started it and the user's token version then, `next` where to go after; each spent once, by `usedAt`).
 */
export function providerSteps(dialect: Database["dialect"]): Step[] {
  const time = timeColumn(dialect);
  const { identities, oauthFlows } = PROVIDER_TABLES;
  return [
    createTableStep(identities, (table) =>
      table
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("userId", "text", (column) => column.notNull())
        .addColumn("provider", "text", (column) => column.notNull())
        .addColumn("subject", "text", (column) => column.notNull())
        .addColumn("email", "text")
        .addColumn("createdAt", time, (column) => column.notNull())
        .addUniqueConstraint(`${identities}__provider_subject`, ["provider", "subject"]),
    ),
    {
      name: `create index ${identities}__userId`,
      run: (trx) => trx.schema.createIndex(`${identities}__userId`).ifNotExists().on(identities).columns(["userId", "createdAt"]).execute(),
    },
    createTableStep(oauthFlows, (table) =>
      table
        .addColumn("stateHash", "text", (column) => column.primaryKey())
        .addColumn("bindingHash", "text", (column) => column.notNull())
        .addColumn("provider", "text", (column) => column.notNull())
        .addColumn("purpose", "text", (column) => column.notNull())
        .addColumn("userId", "text")
        .addColumn("sessionId", "text")
        .addColumn("tokenVersion", "integer")
        .addColumn("next", "text")
        .addColumn("createdAt", time, (column) => column.notNull())
        .addColumn("expiresAt", time, (column) => column.notNull())
        .addColumn("usedAt", time),
    ),
    {
      name: `create index ${oauthFlows}__expiresAt`,
      run: (trx) => trx.schema.createIndex(`${oauthFlows}__expiresAt`).ifNotExists().on(oauthFlows).column("expiresAt").execute(),
    },
  ];
}
