import { timeColumn } from "./columns.js";
import type { Database } from "./database.js";
import { createTableStep, type Step } from "./migration-step.js";

/** The tables of second factors (docs/mfa.md); entity tables never start with `domain_auth_`. */
export const SECOND_FACTOR_TABLES = {
  /** One row per user who started or finished TOTP enrolment: the secret sealed, never in plain form. */
  totp: "domain_auth_totp",
  /** A user's recovery codes, by SHA-256. */
  recoveryCodes: "domain_auth_recovery_codes",
  /** The tokens between a password and a second factor, or of a required enrolment, by SHA-256. */
  mfaTokens: "domain_auth_mfa_tokens",
  /** A user's passkeys: the credential's public key, never a secret. */
  passkeys: "domain_auth_passkeys",
  /** The WebAuthn challenges handed out and not yet answered, by SHA-256; each is spent once. */
  webauthnChallenges: "domain_auth_webauthn_challenges",
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

/** Adds the token version to an mfa token table made before it was kept (its live tokens, `null`, are refused). */
function addTokenVersionStep(table: string): Step {
  return {
    name: `add column ${table}.tokenVersion`,
    run: (trx) => trx.schema.alterTable(table).addColumn("tokenVersion", "integer").execute(),
  };
}

/**
 * The TOTP secrets (sealed with AES-256-GCM; `confirmedAt` null while pending; `lastStep` the last
 * time step whose code was accepted), the recovery codes and the mfa tokens. Times are ms since the epoch.
 */
export function secondFactorSteps(dialect: Database["dialect"], mfaTokenColumns?: ReadonlySet<string>): Step[] {
  const time = timeColumn(dialect);
  const { totp, recoveryCodes, mfaTokens } = SECOND_FACTOR_TABLES;
  return [
    createTableStep(totp, (table) =>
      table
        .addColumn("userId", "text", (column) => column.primaryKey())
        .addColumn("secret", "text", (column) => column.notNull())
        .addColumn("createdAt", time, (column) => column.notNull())
        .addColumn("confirmedAt", time)
        .addColumn("lastStep", time),
    ),
    createTableStep(recoveryCodes, (table) =>
      table
        .addColumn("userId", "text", (column) => column.notNull())
        .addColumn("codeHash", "text", (column) => column.notNull())
        .addColumn("createdAt", time, (column) => column.notNull())
        .addColumn("usedAt", time)
        .addPrimaryKeyConstraint(`${recoveryCodes}__pk`, ["userId", "codeHash"]),
    ),
    createTableStep(mfaTokens, (table) =>
      table
        .addColumn("tokenHash", "text", (column) => column.primaryKey())
        .addColumn("userId", "text", (column) => column.notNull())
        .addColumn("kind", "text", (column) => column.notNull())
        .addColumn("createdAt", time, (column) => column.notNull())
        .addColumn("expiresAt", time, (column) => column.notNull())
        .addColumn("usedAt", time)
        .addColumn("tokenVersion", "integer"),
    ),
    // The user's token version at issue: a token issued before a password, e-mail or role change is refused.
    ...(mfaTokenColumns && !mfaTokenColumns.has("tokenVersion") ? [addTokenVersionStep(mfaTokens)] : []),
    indexStep(mfaTokens, ["userId"]),
    indexStep(mfaTokens, ["expiresAt"]),
    ...passkeySteps(time),
  ];
}

/**
 * The passkeys (`credentialId` base64url, unique; `publicKey` the COSE key, base64url; `counter`
 * the authenticator's signature counter) and the WebAuthn challenges (`userId` null for a
 * sign-in with a discoverable credential).
 */
function passkeySteps(time: "bigint" | "integer"): Step[] {
  const { passkeys, webauthnChallenges } = SECOND_FACTOR_TABLES;
  return [
    createTableStep(passkeys, (table) =>
      table
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("userId", "text", (column) => column.notNull())
        .addColumn("credentialId", "text", (column) => column.notNull().unique())
        .addColumn("publicKey", "text", (column) => column.notNull())
        .addColumn("counter", time, (column) => column.notNull())
        .addColumn("transports", "text", (column) => column.notNull())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("createdAt", time, (column) => column.notNull())
        .addColumn("lastUsedAt", time),
    ),
    indexStep(passkeys, ["userId"]),
    createTableStep(webauthnChallenges, (table) =>
      table
        .addColumn("challengeHash", "text", (column) => column.primaryKey())
        .addColumn("userId", "text")
        .addColumn("purpose", "text", (column) => column.notNull())
        .addColumn("createdAt", time, (column) => column.notNull())
        .addColumn("expiresAt", time, (column) => column.notNull())
        .addColumn("usedAt", time),
    ),
    indexStep(webauthnChallenges, ["expiresAt"]),
  ];
}
