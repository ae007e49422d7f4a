import { timeColumn } from "./columns.js";
import type { Database } from "./database.js";
import { createTableStep, type Step } from "./migration-step.js";

/** The table of API keys (docs/api-keys.md); entity tables never start with `domain_auth_`. */
export const API_KEY_TABLES = {
  /** One row per live key: its SHA-256, never the key. A revoked key's row is deleted. */
  apiKeys: "domain_auth_api_keys",
} as const;

/**
 * The API keys: `keyHash` unique (the one read that checks a key), `scopes` a JSON array or
 * `null` (every operation the user may perform), times in ms since the epoch, `expiresAt` `null`
 * for a key that never expires; indexed by user for the lists.
 */
export function apiKeySteps(dialect: Database["dialect"]): Step[] {
  const time = timeColumn(dialect);
  const table = API_KEY_TABLES.apiKeys;
  return [
    createTableStep(table, (table) =>
      table
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("userId", "text", (column) => column.notNull())
        .addColumn("keyHash", "text", (column) => column.notNull().unique())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("scopes", "text")
        .addColumn("createdAt", time, (column) => column.notNull())
        .addColumn("expiresAt", time)
        .addColumn("lastUsedAt", time),
    ),
    {
      name: `create index ${table}__userId`,
      run: (trx) => trx.schema.createIndex(`${table}__userId`).ifNotExists().on(table).columns(["userId", "createdAt"]).execute(),
    },
  ];
}
