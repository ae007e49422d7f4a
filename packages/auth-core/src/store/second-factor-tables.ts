import type { Database } from "./database.js";
import type { Step } from "./migration-step.js";

/** The tables of second factors (CONTRACT 15); entity tables never start with `domain_auth_`. */
export const SECOND_FACTOR_TABLES = {
  /** One row per user who started or finished TOTP enrolment: the secret sealed, never in plain form. */
  totp: "domain_auth_totp",
  /** A user's recovery codes, by SHA-256. */
  recoveryCodes: "domain_auth_recovery_codes",
  /** The tokens between a password and a second factor, or of a required enrolment, by SHA-256. */
  mfaTokens: "domain_auth_mfa_tokens",
} as const;

function indexStep(table: string, columns: readonly string[]): Step {
  const name = `${table}__${columns.join("_")}`;
  return {
    name: `create index ${name}`,
    run: (trx) =>
      trx.schema
        .createIndex(name)
        .ifNotExists()
        .on(table)
        .columns([...columns])
        .execute(),
  };
}

/**
 * The TOTP secrets (sealed with AES-256-GCM; `confirmedAt` null while pending; `lastStep` the last
 * time step whose code was accepted), the recovery codes and the mfa tokens. Times are ms since the epoch.
 */
export function secondFactorSteps(dialect: Database["dialect"]): Step[] {
  const time = dialect === "postgres" ? "bigint" : "integer";
  const { totp, recoveryCodes, mfaTokens } = SECOND_FACTOR_TABLES;
  return [
    {
      name: `create table ${totp}`,
      run: (trx) =>
        trx.schema
          .createTable(totp)
          .ifNotExists()
          .addColumn("userId", "text", (column) => column.primaryKey())
          .addColumn("secret", "text", (column) => column.notNull())
          .addColumn("createdAt", time, (column) => column.notNull())
          .addColumn("confirmedAt", time)
          .addColumn("lastStep", time)
          .execute(),
    },
    {
      name: `create table ${recoveryCodes}`,
      run: (trx) =>
        trx.schema
          .createTable(recoveryCodes)
          .ifNotExists()
          .addColumn("userId", "text", (column) => column.notNull())
          .addColumn("codeHash", "text", (column) => column.notNull())
          .addColumn("createdAt", time, (column) => column.notNull())
          .addColumn("usedAt", time)
          .addPrimaryKeyConstraint(`${recoveryCodes}__pk`, ["userId", "codeHash"])
          .execute(),
    },
    {
      name: `create table ${mfaTokens}`,
      run: (trx) =>
        trx.schema
          .createTable(mfaTokens)
          .ifNotExists()
          .addColumn("tokenHash", "text", (column) => column.primaryKey())
          .addColumn("userId", "text", (column) => column.notNull())
          .addColumn("kind", "text", (column) => column.notNull())
          .addColumn("createdAt", time, (column) => column.notNull())
          .addColumn("expiresAt", time, (column) => column.notNull())
          .addColumn("usedAt", time)
          .execute(),
    },
    indexStep(mfaTokens, ["userId"]),
    indexStep(mfaTokens, ["expiresAt"]),
  ];
}
