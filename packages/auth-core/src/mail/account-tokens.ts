import { createHash, randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { AnyDB, Database } from "../store/database.js";
import { TABLES } from "../store/migrate.js";
import { writeTransaction } from "../store/transaction.js";

import { ACCOUNT_TOKEN_LIFETIMES, type AccountTokenKind } from "./lifetimes.js";

export type { AccountTokenKind } from "./lifetimes.js";

/** Random bytes in a token: 256 bits. */
const TOKEN_BYTES = 32;
/** The longest token worth looking up; ours are 43 characters. */
const MAX_TOKEN_LENGTH = 128;

/** A stored token: never the token itself, only its SHA-256. */
export interface AccountTokenRow {
  readonly id: string;
  readonly userId: string;
  readonly kind: AccountTokenKind;
  /** The address the link was sent to: it is good only while the user still has this email. */
  readonly email: string;
  readonly expiresAt: number;
}

/** Work that commits with a token's write, in its transaction (the event that records it). */
export type TokenWithin = (trx: Kysely<AnyDB>) => Promise<void>;

/** The SHA-256 of a token, base64url: what the table holds and is searched by. */
export function hashAccountToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("base64url");
}

/**
 * Reset, verification and invitation tokens (docs/mail.md): 32 random bytes, stored as SHA-256
 * only; a new one supersedes every earlier one of its kind for its user; used at most once.
 */
export class AccountTokenStore {
  constructor(private readonly database: Database) {}

  /**
   * A new token of `kind` for a user, sent to `email`; earlier ones of that kind for the user stop
   * working; expired and spent tokens of anyone are deleted; `within` commits with it. Issued for
   * one user one at a time (PostgreSQL advisory lock; SQLite write lock).
   *
   * @returns the token, to put in a link; only its hash is stored.
   */
  async issue(userId: string, kind: AccountTokenKind, email: string, now: number, within?: TokenWithin): Promise<string> {
    const token = randomBytes(TOKEN_BYTES).toString("base64url");
    await this.write({ userId, kind, email, tokenHash: hashAccountToken(token), usedAt: null }, now, within);
    return token;
  }

  /**
   * The write of {@link issue}, statement for statement, for no user: a row that is spent as it is
   * written, for a user id that exists nowhere, and that the next issue deletes. A request about an
   * email without an account makes it, so that it costs the database what one about an account does.
   */
  async issueUnusable(kind: AccountTokenKind, now: number, within?: TokenWithin): Promise<void> {
    const tokenHash = hashAccountToken(randomBytes(TOKEN_BYTES).toString("base64url"));
    await this.write({ userId: `none:${randomBytes(16).toString("base64url")}`, kind, email: "", tokenHash, usedAt: now }, now, within);
  }

  private async write(
    row: Pick<AccountTokenRow, "userId" | "kind" | "email"> & { tokenHash: string; usedAt: number | null },
    now: number,
    within: TokenWithin | undefined,
  ): Promise<void> {
    const { userId, kind } = row;
    await writeTransaction(this.database, async (trx) => {
      if (this.database.dialect === "postgres")
        await sql`select pg_advisory_xact_lock(hashtext(${`domain_auth_tokens:${userId}`}))`.execute(trx);
      // The user's earlier tokens of this kind are superseded; anyone's expired or spent ones go too.
      await trx
        .deleteFrom(TABLES.tokens)
        .where((eb) =>
          eb.or([eb.and([eb("userId", "=", userId), eb("kind", "=", kind)]), eb("expiresAt", "<=", now), eb("usedAt", "is not", null)]),
        )
        .execute();
      await trx
        .insertInto(TABLES.tokens)
        .values({
          id: randomBytes(16).toString("base64url"),
          ...row,
          createdAt: now,
          expiresAt: now + ACCOUNT_TOKEN_LIFETIMES[kind] * 1000,
        })
        .execute();
      await within?.(trx);
    });
  }

  /** The unused, unexpired token of one of `kinds` that `token` is, or `undefined`. */
  async findLive(token: string, kinds: readonly AccountTokenKind[], now: number): Promise<AccountTokenRow | undefined> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
    const row = await this.database.db
      .selectFrom(TABLES.tokens)
      .select(["id", "userId", "kind", "email", "expiresAt"])
      .where("tokenHash", "=", hashAccountToken(token))
      .where("usedAt", "is", null)
      .where("kind", "in", [...kinds])
      .executeTakeFirst();
    if (!row || Number(row.expiresAt) <= now) return undefined;
    return {
      id: String(row.id),
      userId: String(row.userId),
      kind: row.kind as AccountTokenKind,
      email: String(row.email),
      expiresAt: Number(row.expiresAt),
    };
  }

  /**
   * Spends a token inside the caller's transaction: a conditional update the database settles, so
   * of simultaneous uses exactly one gets `true`.
   */
  async spend(trx: Kysely<AnyDB>, id: string, now: number): Promise<boolean> {
    const result = await trx
      .updateTable(TABLES.tokens)
      .set({ usedAt: now })
      .where("id", "=", id)
      .where("usedAt", "is", null)
      .where("expiresAt", ">", now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
