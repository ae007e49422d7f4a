import type { Kysely } from "kysely";
import type { AnyDB, Database } from "../store/database.js";
import { PROVIDER_TABLES } from "../store/provider-tables.js";

/** A user's account at a provider: the pair (provider, subject) names it, never the e-mail. Times in ms since the epoch. */
export interface IdentityRow {
  readonly id: string;
  readonly userId: string;
  /** The provider's id in `auth.providers`. */
  readonly provider: string;
  /** The provider's stable id of the person (`sub`; GitHub's numeric user id). */
  readonly subject: string;
  /** The e-mail the provider gave when it was linked, for the list; never used to find it. */
  readonly email: string | null;
  readonly createdAt: number;
}

/** What a flow is for: signing in (or up), or linking an account to the signed-in user who started it. */
export type FlowPurpose = "sign-in" | "link";

/** A flow as stored: its `state` and its browser's flow cookie only as SHA-256. */
export interface FlowRow {
  readonly stateHash: string;
  readonly bindingHash: string;
  readonly provider: string;
  readonly purpose: FlowPurpose;
  /** The user a link is for; `null` for a sign-in. */
  readonly userId: string | null;
  /** The session that started a link: it must still be live at the callback; `null` for a sign-in. */
  readonly sessionId: string | null;
  /** The user's token version when a link started: a password, e-mail or role change since ends it. */
  readonly tokenVersion: number | null;
  /** Where the browser goes after a sign-in: a path of this origin. */
  readonly next: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}

const IDENTITY_COLUMNS = ["id", "userId", "provider", "subject", "email", "createdAt"] as const;
const FLOW_COLUMNS = [
  "stateHash",
  "bindingHash",
  "provider",
  "purpose",
  "userId",
  "sessionId",
  "tokenVersion",
  "next",
  "createdAt",
  "expiresAt",
] as const;
const { identities, oauthFlows } = PROVIDER_TABLES;

function toIdentity(row: Record<string, unknown>): IdentityRow {
  return {
    id: String(row.id),
    userId: String(row.userId),
    provider: String(row.provider),
    subject: String(row.subject),
    email: row.email === null || row.email === undefined ? null : String(row.email),
    createdAt: Number(row.createdAt),
  };
}

function toFlow(row: Record<string, unknown>): FlowRow {
  return {
    stateHash: String(row.stateHash),
    bindingHash: String(row.bindingHash),
    provider: String(row.provider),
    purpose: row.purpose === "link" ? "link" : "sign-in",
    userId: row.userId === null || row.userId === undefined ? null : String(row.userId),
    sessionId: row.sessionId === null || row.sessionId === undefined ? null : String(row.sessionId),
    tokenVersion: row.tokenVersion === null || row.tokenVersion === undefined ? null : Number(row.tokenVersion),
    next: row.next === null || row.next === undefined ? null : String(row.next),
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
  };
}

/** The identities and flows tables (docs/providers.md). */
export class IdentityStore {
  constructor(readonly database: Database) {}

  private get db(): Kysely<AnyDB> {
    return this.database.db;
  }

  /** The identity of a provider's subject, whoever holds it; `undefined` for none. */
  async findBySubject(trx: Kysely<AnyDB>, provider: string, subject: string): Promise<IdentityRow | undefined> {
    const row = await trx
      .selectFrom(identities)
      .select([...IDENTITY_COLUMNS])
      .where("provider", "=", provider)
      .where("subject", "=", subject)
      .executeTakeFirst();
    return row && toIdentity(row);
  }

  /** A user's identities, oldest first. */
  async listOf(userId: string, trx: Kysely<AnyDB> = this.db): Promise<IdentityRow[]> {
    const rows = await trx
      .selectFrom(identities)
      .select([...IDENTITY_COLUMNS])
      .where("userId", "=", userId)
      .orderBy("createdAt")
      .orderBy("id")
      .execute();
    return rows.map(toIdentity);
  }

  /** Links an identity; the (provider, subject) pair is unique, so a second link of it fails in the database. */
  async insert(trx: Kysely<AnyDB>, row: IdentityRow): Promise<void> {
    await trx
      .insertInto(identities)
      .values({ ...row })
      .execute();
  }

  /** Unlinks one identity of a user; `undefined` when that user has none of that id. */
  async remove(trx: Kysely<AnyDB>, userId: string, id: string): Promise<IdentityRow | undefined> {
    const [row] = await trx
      .selectFrom(identities)
      .select([...IDENTITY_COLUMNS])
      .where("id", "=", id)
      .where("userId", "=", userId)
      .execute();
    if (!row) return undefined;
    await trx.deleteFrom(identities).where("id", "=", id).execute();
    return toIdentity(row);
  }

  /** Unlinks every identity of a user (their account is going). */
  async removeAll(trx: Kysely<AnyDB>, userId: string): Promise<void> {
    await trx.deleteFrom(identities).where("userId", "=", userId).execute();
  }

  /** Records a flow that was just started, and drops the flows that ended a day ago or more. */
  async insertFlow(row: FlowRow): Promise<void> {
    await this.db
      .deleteFrom(oauthFlows)
      .where("expiresAt", "<", row.createdAt - 24 * 3600 * 1000)
      .execute();
    await this.db
      .insertInto(oauthFlows)
      .values({ ...row, usedAt: null })
      .execute();
  }

  /**
   * Spends a flow: the one of this `state`, started by the browser holding this flow cookie, not
   * spent and not expired. One conditional update settles a race: of two callbacks, one gets it.
   * A browser without the cookie cannot spend (and so cannot spoil) another browser's flow.
   */
  async spendFlow(stateHash: string, bindingHash: string, now: number): Promise<FlowRow | undefined> {
    const spent = await this.db
      .updateTable(oauthFlows)
      .set({ usedAt: now })
      .where("stateHash", "=", stateHash)
      .where("bindingHash", "=", bindingHash)
      .where("usedAt", "is", null)
      .where("expiresAt", ">", now)
      .returning([...FLOW_COLUMNS])
      .executeTakeFirst();
    return spent && toFlow(spent);
  }
}
