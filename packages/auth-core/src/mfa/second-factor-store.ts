import type { Kysely } from "kysely";
import type { AnyDB, Database } from "../store/database.js";
import { SECOND_FACTOR_TABLES as TABLES } from "../store/second-factor-tables.js";

/** A user's TOTP row: the secret as sealed, pending until confirmed. Times in ms since the epoch. */
export interface TotpRow {
  readonly userId: string;
  /** The base32 secret sealed by the secret box: never stored in plain form. */
  readonly sealed: string;
  /** When the secret was made (for a pending one: when its enrolment started). */
  readonly createdAt: number;
  readonly confirmedAt: number | null;
  /** The last time step whose code was accepted: no code of it or before is accepted again. */
  readonly lastStep: number | null;
}

/** What an mfa token stands for: a sign-in waiting for its second factor, or a required enrolment. */
export type MfaTokenKind = "challenge" | "enrolment";

/** A live mfa token, found by its hash. */
export interface MfaTokenRow {
  readonly tokenHash: string;
  readonly userId: string;
  readonly kind: MfaTokenKind;
  readonly expiresAt: number;
  /** The user's token version when it was issued: a password, e-mail or role change since refuses it (`null`: issued before versions were kept). */
  readonly tokenVersion: number | null;
}

function updated(result: { numUpdatedRows: bigint }): boolean {
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The second-factor tables (docs/mfa.md). Every change that must happen once — a code accepted, a
 * recovery code or an mfa token spent, a pending secret confirmed — is a conditional update the
 * database settles, so of simultaneous uses exactly one succeeds.
 */
export class SecondFactorStore {
  constructor(readonly database: Database) {}

  async findTotp(userId: string): Promise<TotpRow | undefined> {
    const row = await this.database.db
      .selectFrom(TABLES.totp)
      .select(["userId", "secret", "createdAt", "confirmedAt", "lastStep"])
      .where("userId", "=", userId)
      .executeTakeFirst();
    if (!row) return undefined;
    const time = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    return {
      userId: String(row.userId),
      sealed: String(row.secret),
      createdAt: Number(row.createdAt),
      confirmedAt: time(row.confirmedAt),
      lastStep: time(row.lastStep),
    };
  }

  /** How many of the user's recovery codes are unused (what `GET mfa/totp` tells; never a code or its hash). */
  async countUnusedRecoveryCodes(userId: string): Promise<number> {
    const row = await this.database.db
      .selectFrom(TABLES.recoveryCodes)
      .select((eb) => eb.fn.countAll().as("left"))
      .where("userId", "=", userId)
      .where("usedAt", "is", null)
      .executeTakeFirst();
    return Number(row?.left ?? 0);
  }

  /** Whether the user's TOTP is on, read in a transaction. */
  async isConfirmed(trx: Kysely<AnyDB>, userId: string): Promise<boolean> {
    const row = await trx
      .selectFrom(TABLES.totp)
      .select("userId")
      .where("userId", "=", userId)
      .where("confirmedAt", "is not", null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Stores a pending secret unless the user has one created after `keepSince` (ms; `Infinity` replaces
   * any pending one) or a confirmed one: the database settles simultaneous starts, so all of them then
   * read the same row. `true` when `sealed` was written.
   */
  async savePending(userId: string, sealed: string, now: number, keepSince = Number.POSITIVE_INFINITY): Promise<boolean> {
    const result = await this.database.db
      .insertInto(TABLES.totp)
      .values({ userId, secret: sealed, createdAt: now, confirmedAt: null, lastStep: null })
      .onConflict((conflict) =>
        conflict
          .column("userId")
          .doUpdateSet({ secret: sealed, createdAt: now })
          .where(`${TABLES.totp}.confirmedAt`, "is", null)
          .where(`${TABLES.totp}.createdAt`, "<", keepSince),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows) === 1;
  }

  /** Confirms the pending secret `sealed` (not one that replaced it meanwhile), its code's step accepted. */
  async confirm(trx: Kysely<AnyDB>, userId: string, sealed: string, step: number, now: number): Promise<boolean> {
    return updated(
      await trx
        .updateTable(TABLES.totp)
        .set({ confirmedAt: now, lastStep: step })
        .where("userId", "=", userId)
        .where("secret", "=", sealed)
        .where("confirmedAt", "is", null)
        .executeTakeFirst(),
    );
  }

  /** Accepts a code of `step` for a confirmed TOTP: only after every step accepted before (a code works once). */
  async acceptStep(trx: Kysely<AnyDB>, userId: string, step: number): Promise<boolean> {
    return updated(
      await trx
        .updateTable(TABLES.totp)
        .set({ lastStep: step })
        .where("userId", "=", userId)
        .where("confirmedAt", "is not", null)
        .where((eb) => eb.or([eb("lastStep", "is", null), eb("lastStep", "<", step)]))
        .executeTakeFirst(),
    );
  }

  /** The user's recovery codes become these (by hash): the old set dies. */
  async replaceRecoveryCodes(trx: Kysely<AnyDB>, userId: string, hashes: readonly string[], now: number): Promise<void> {
    await trx.deleteFrom(TABLES.recoveryCodes).where("userId", "=", userId).execute();
    await trx
      .insertInto(TABLES.recoveryCodes)
      .values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now, usedAt: null })))
      .execute();
  }

  /** Spends an unused recovery code of the user; `false` for an unknown or spent one. */
  async spendRecoveryCode(trx: Kysely<AnyDB>, userId: string, codeHash: string, now: number): Promise<boolean> {
    return updated(
      await trx
        .updateTable(TABLES.recoveryCodes)
        .set({ usedAt: now })
        .where("userId", "=", userId)
        .where("codeHash", "=", codeHash)
        .where("usedAt", "is", null)
        .executeTakeFirst(),
    );
  }

  /** Removes every factor of a user (TOTP, pending or not, recovery codes, passkeys) and their mfa tokens and challenges. */
  async removeAll(trx: Kysely<AnyDB>, userId: string): Promise<void> {
    for (const table of [TABLES.totp, TABLES.recoveryCodes, TABLES.mfaTokens, TABLES.passkeys, TABLES.webauthnChallenges]) {
      await trx.deleteFrom(table).where("userId", "=", userId).execute();
    }
  }

  /** Stores a new mfa token by its hash; tokens that expired are deleted on the way. */
  async insertToken(row: MfaTokenRow, now: number): Promise<void> {
    await this.database.db.deleteFrom(TABLES.mfaTokens).where("expiresAt", "<=", now).execute();
    await this.database.db
      .insertInto(TABLES.mfaTokens)
      .values({ ...row, createdAt: now, usedAt: null })
      .execute();
  }

  /** The unspent, unexpired mfa token of `kind` whose hash this is. */
  async findToken(tokenHash: string, kind: MfaTokenKind, now: number): Promise<MfaTokenRow | undefined> {
    const row = await this.database.db
      .selectFrom(TABLES.mfaTokens)
      .select(["tokenHash", "userId", "kind", "expiresAt", "tokenVersion"])
      .where("tokenHash", "=", tokenHash)
      .where("kind", "=", kind)
      .where("usedAt", "is", null)
      .executeTakeFirst();
    if (!row || Number(row.expiresAt) <= now) return undefined;
    const tokenVersion = row.tokenVersion === null || row.tokenVersion === undefined ? null : Number(row.tokenVersion);
    return { tokenHash: String(row.tokenHash), userId: String(row.userId), kind, expiresAt: Number(row.expiresAt), tokenVersion };
  }

  /** Spends every live enrolment token of the user; the hashes of those it spent. */
  async spendEnrolmentTokens(trx: Kysely<AnyDB>, userId: string, now: number): Promise<string[]> {
    const rows = await trx
      .updateTable(TABLES.mfaTokens)
      .set({ usedAt: now })
      .where("userId", "=", userId)
      .where("kind", "=", "enrolment")
      .where("usedAt", "is", null)
      .where("expiresAt", ">", now)
      .returning("tokenHash")
      .execute();
    return rows.map((row) => String(row.tokenHash));
  }

  /** Spends an mfa token, if it is still unspent and unexpired. */
  async spendToken(trx: Kysely<AnyDB>, tokenHash: string, now: number): Promise<boolean> {
    return updated(
      await trx
        .updateTable(TABLES.mfaTokens)
        .set({ usedAt: now })
        .where("tokenHash", "=", tokenHash)
        .where("usedAt", "is", null)
        .where("expiresAt", ">", now)
        .executeTakeFirst(),
    );
  }
}
