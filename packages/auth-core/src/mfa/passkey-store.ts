import type { Kysely } from "kysely";
import type { AnyDB, Database } from "../store/database.js";
import { SECOND_FACTOR_TABLES as TABLES } from "../store/second-factor-tables.js";

/** A stored passkey: its credential's public key and counter. Times in ms since the epoch. */
export interface PasskeyRow {
  /** Our id of it: what `DELETE passkeys/<id>` names. */
  readonly id: string;
  readonly userId: string;
  /** The credential id, base64url, as the authenticator returns it. */
  readonly credentialId: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** What a WebAuthn challenge was handed out for. */
export type ChallengePurpose = "registration" | "sign-in" | "second-step";

/** A challenge as stored: by its hash, for whom (`null`: anyone, a discoverable sign-in) and what. */
export interface ChallengeRow {
  readonly challengeHash: string;
  readonly userId: string | null;
  readonly purpose: ChallengePurpose;
  readonly expiresAt: number;
}

const COLUMNS = ["id", "userId", "credentialId", "publicKey", "counter", "transports", "name", "createdAt", "lastUsedAt"] as const;

function toPasskey(row: Record<(typeof COLUMNS)[number], unknown>): PasskeyRow {
  return {
    id: String(row.id),
    userId: String(row.userId),
    credentialId: String(row.credentialId),
    publicKey: String(row.publicKey),
    counter: Number(row.counter),
    transports: JSON.parse(String(row.transports)) as string[],
    name: String(row.name),
    createdAt: Number(row.createdAt),
    lastUsedAt: row.lastUsedAt === null || row.lastUsedAt === undefined ? null : Number(row.lastUsedAt),
  };
}

/**
 * The passkey tables (docs/mfa.md). A challenge is spent by a conditional update, and a counter
 * moves only from the value it was read at, so of simultaneous uses exactly one succeeds.
 */
export class PasskeyStore {
  constructor(readonly database: Database) {}

  async listOf(userId: string): Promise<PasskeyRow[]> {
    const rows = await this.database.db
      .selectFrom(TABLES.passkeys)
      .select([...COLUMNS])
      .where("userId", "=", userId)
      .orderBy("createdAt")
      .orderBy("id")
      .execute();
    return rows.map(toPasskey);
  }

  /** Whether the user has at least one passkey. */
  async hasAny(userId: string): Promise<boolean> {
    const row = await this.database.db.selectFrom(TABLES.passkeys).select("id").where("userId", "=", userId).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async findByCredential(credentialId: string): Promise<PasskeyRow | undefined> {
    const row = await this.database.db
      .selectFrom(TABLES.passkeys)
      .select([...COLUMNS])
      .where("credentialId", "=", credentialId)
      .executeTakeFirst();
    return row && toPasskey(row);
  }

  /** Stores a new passkey; `false` when its credential is registered already (to anyone). */
  async insert(trx: Kysely<AnyDB>, row: PasskeyRow): Promise<boolean> {
    const result = await trx
      .insertInto(TABLES.passkeys)
      .values({ ...row, transports: JSON.stringify(row.transports) })
      .onConflict((conflict) => conflict.column("credentialId").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Removes a passkey of the user; `false` when they have none of that id. */
  async remove(trx: Kysely<AnyDB>, userId: string, id: string): Promise<boolean> {
    const result = await trx.deleteFrom(TABLES.passkeys).where("id", "=", id).where("userId", "=", userId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Records a use: the counter moves from `from` to `to` (only if no other use moved it meanwhile). */
  async recordUse(trx: Kysely<AnyDB>, id: string, from: number, to: number, now: number): Promise<boolean> {
    const result = await trx
      .updateTable(TABLES.passkeys)
      .set({ counter: to, lastUsedAt: now })
      .where("id", "=", id)
      .where("counter", "=", from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Stores a challenge by its hash; challenges that expired are deleted on the way. */
  async insertChallenge(row: ChallengeRow, now: number): Promise<void> {
    await this.database.db.deleteFrom(TABLES.webauthnChallenges).where("expiresAt", "<=", now).execute();
    await this.database.db
      .insertInto(TABLES.webauthnChallenges)
      .values({ ...row, createdAt: now, usedAt: null })
      .execute();
  }

  /**
   * Spends a live challenge handed out for `purpose` to `userId` (`null`: to anyone); `false` for
   * one that is unknown, spent, expired, or was for someone or something else.
   */
  async spendChallenge(challengeHash: string, purpose: ChallengePurpose, userId: string | null, now: number): Promise<boolean> {
    const result = await this.database.db
      .updateTable(TABLES.webauthnChallenges)
      .set({ usedAt: now })
      .where("challengeHash", "=", challengeHash)
      .where("purpose", "=", purpose)
      .where("userId", userId === null ? "is" : "=", userId)
      .where("usedAt", "is", null)
      .where("expiresAt", ">", now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
