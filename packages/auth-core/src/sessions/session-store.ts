import type { Kysely } from "kysely";
import type { EntityModel } from "../config/index.js";
import { credentialUserRead, type OrganizationAccessRow } from "../store/credential-user-read.js";
import type { AnyDB, Database } from "../store/database.js";
import { TABLES } from "../store/migrate.js";
import { fromRow, type SignedInUser, type StoredUser, toStoredUser } from "../store/rows.js";
import { selectRows } from "../store/select-rows.js";
import { writeTransaction } from "../store/transaction.js";

/** A row of the sessions table; times are milliseconds since the epoch. */
export interface SessionRow {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: number;
  readonly refreshedAt: number;
  /** When the refresh token stops working: sliding from each refresh, capped by the session's maximum age. */
  readonly expiresAt: number;
  readonly userAgent: string | null;
  readonly address: string | null;
  readonly revokedAt: number | null;
  /** SHA-256 of the current refresh token. */
  readonly refreshHash: string;
  /**
   * SHA-256 of the refresh token a rotation spent, and when, as versions before the table of spent
   * refresh tokens recorded them; rotations now leave them as they are ({@link SessionStore.findSpent}).
   */
  readonly previousHash: string | null;
  readonly rotatedAt: number | null;
}

/** A spent refresh token: its session, and when its rotation spent it (ms since the epoch). */
export interface SpentRefreshToken {
  readonly sessionId: string;
  readonly spentAt: number;
}

/** Whether a value could be a key of ours (an organization's id): not empty, not too long, no U+0000. */
function isPossibleKey(value: string): boolean {
  return value.length > 0 && value.length <= MAX_ID_LENGTH && !value.includes("\u0000");
}

/** A session and its user, read together. */
export interface SessionWithUser {
  readonly session: SessionRow;
  readonly user: StoredUser;
}

/** What a token check reads of a session: enough to tell it is live, and to renew it. */
export type LiveSessionRow = Pick<SessionRow, "id" | "userId" | "createdAt" | "expiresAt" | "revokedAt" | "refreshHash">;

/** A live session's row and its user, as a token check reads them. */
export interface LiveSessionWithUser {
  readonly session: LiveSessionRow;
  readonly user: SignedInUser;
  /**
   * When the check was asked about an organization: `null` when it does not exist, else the user's
   * role in it (`null` when not a member), read in the same statement.
   */
  readonly organization?: OrganizationAccessRow | null;
}

/** The columns of a session that a token check reads. */
const LIVE_SESSION_COLUMNS = ["id", "userId", "createdAt", "expiresAt", "revokedAt", "refreshHash"] as const;

/** The token check's read of one user table: its SQL, built once, and how a row becomes its result. */
interface TokenCheckRead {
  readonly sql: string;
  toResult(row: Record<string, unknown>): LiveSessionWithUser;
}

/** What a rotation's SQL takes: the values it writes, the session's id and the refresh token hash it spends. */
type RotationParameter = "refreshHash" | "refreshedAt" | "expiresAt" | "id" | "spent";

/** The longest session id we look up; ours are 22 characters. */
const MAX_ID_LENGTH = 64;
const SESSION_COLUMNS = [
  "id",
  "userId",
  "createdAt",
  "refreshedAt",
  "expiresAt",
  "userAgent",
  "address",
  "revokedAt",
  "refreshHash",
  "previousHash",
  "rotatedAt",
] as const;
/** Session columns come back under this prefix, beside the user's own columns. */
const PREFIX = "domain_auth_session_";

function toSessionRow(row: Record<string, unknown>): SessionRow {
  const value = (name: string) => row[name];
  const time = (name: string) => (value(name) === null || value(name) === undefined ? null : Number(value(name)));
  return {
    id: String(value("id")),
    userId: String(value("userId")),
    createdAt: Number(value("createdAt")),
    refreshedAt: Number(value("refreshedAt")),
    expiresAt: Number(value("expiresAt")),
    userAgent: (value("userAgent") as string | null) ?? null,
    address: (value("address") as string | null) ?? null,
    revokedAt: time("revokedAt"),
    refreshHash: String(value("refreshHash")),
    previousHash: (value("previousHash") as string | null) ?? null,
    rotatedAt: time("rotatedAt"),
  };
}

/** Splits a joined row into the session (its prefixed columns) and the user (the rest). */
function splitJoined(entity: EntityModel, row: Record<string, unknown>): SessionWithUser {
  const session: Record<string, unknown> = {};
  const user: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(PREFIX)) session[key.slice(PREFIX.length)] = value;
    else user[key] = value;
  }
  return { session: toSessionRow(session), user: toStoredUser(fromRow(entity, user)) };
}

/** Work that commits with a change of sessions, in its transaction (the event that records it), given the session. */
export type SessionWithin = (trx: Kysely<AnyDB>, session: { readonly id: string; readonly userId: string }) => Promise<void>;

/** What to revoke of a user's sessions: all, or all but one. */
export interface RevokeOptions {
  /** The session to keep. */
  readonly except?: string;
  /** The transaction to write in (so revoking commits with the change that causes it). */
  readonly trx?: Kysely<AnyDB>;
}

/** The sessions table: one row per sign-in. */
export class SessionStore {
  /** The per-request read, by user table: built once, so checking a token builds no query. */
  private readonly tokenCheckReads = new Map<string, TokenCheckRead>();
  /** The SQL of the read by refresh token hash, by user table: built once. */
  private readonly refreshReads = new Map<string, string>();
  private rotationText: { readonly sql: string; readonly order: readonly RotationParameter[] } | undefined;
  private spentReadText: string | undefined;

  constructor(private readonly database: Database) {}

  private get db(): Kysely<AnyDB> {
    return this.database.db;
  }

  private joined(entity: EntityModel) {
    return this.db
      .selectFrom(`${TABLES.sessions} as s`)
      .innerJoin(`${entity.table} as u`, "u.id", "s.userId")
      .selectAll("u")
      .select(SESSION_COLUMNS.map((column) => `s.${column} as ${PREFIX}${column}`));
  }

  /** Inserts a session; with `within`, in a transaction that commits what `within` writes with it (its event). */
  async insert(row: SessionRow, within?: (trx: Kysely<AnyDB>) => Promise<void>): Promise<void> {
    if (!within) {
      await this.db.insertInto(TABLES.sessions).values(row).execute();
      return;
    }
    await writeTransaction(this.database, async (trx) => {
      await trx.insertInto(TABLES.sessions).values(row).execute();
      await within(trx);
    });
  }

  /**
   * A session and its user together, by the session's id: the one read that checks an access
   * token. It reads only the columns the check and the routes after it use (never the password hash).
   */
  async findForTokenCheck(entity: EntityModel, id: string, organizationId?: string): Promise<LiveSessionWithUser | undefined> {
    if (id.length === 0 || id.length > MAX_ID_LENGTH || id.includes("\u0000")) return undefined;
    const withOrganization = organizationId !== undefined;
    const read = this.tokenCheckReadOf(entity, withOrganization);
    // An id that cannot be an organization's (too long, U+0000, which PostgreSQL refuses in text) names none.
    const organization = withOrganization && isPossibleKey(organizationId) ? organizationId : "";
    const [row] = await selectRows<Record<string, unknown>>(this.database, read.sql, withOrganization ? [organization, id] : [id]);
    return row ? read.toResult(row) : undefined;
  }

  private tokenCheckReadOf(entity: EntityModel, withOrganization: boolean): TokenCheckRead {
    const key = `${withOrganization ? "organization" : "plain"}:${entity.table}`;
    const known = this.tokenCheckReads.get(key);
    if (known) return known;
    const joined = credentialUserRead(
      this.db,
      this.database,
      entity,
      { table: TABLES.sessions, columns: LIVE_SESSION_COLUMNS, keyColumn: "id", prefix: PREFIX },
      { organization: withOrganization },
    );
    const read: TokenCheckRead = {
      sql: joined.sql,
      toResult(row) {
        const column = (name: string) => joined.credentialOf(row, name);
        return {
          ...(withOrganization ? { organization: joined.organizationOf(row) } : {}),
          user: joined.userOf(row),
          session: {
            id: String(column("id")),
            userId: String(column("userId")),
            createdAt: Number(column("createdAt")),
            expiresAt: Number(column("expiresAt")),
            revokedAt: column("revokedAt") === null ? null : Number(column("revokedAt")),
            refreshHash: String(column("refreshHash")),
          },
        };
      },
    };
    this.tokenCheckReads.set(key, read);
    return read;
  }

  /** The session whose current refresh token has this hash, with its user. */
  async findByRefreshHash(entity: EntityModel, hash: string): Promise<SessionWithUser | undefined> {
    let sql = this.refreshReads.get(entity.table);
    if (sql === undefined) {
      sql = this.joined(entity).where("s.refreshHash", "=", "").compile().sql;
      this.refreshReads.set(entity.table, sql);
    }
    const [row] = await selectRows<Record<string, unknown>>(this.database, sql, [hash]);
    return row ? splitJoined(entity, row) : undefined;
  }

  /**
   * A refresh token some rotation of a session spent, by its hash. The rotation that spends a
   * token records it in the same statement (a trigger of the sessions table, `store/migrate.ts`),
   * so a token is always either current or here; rows go when their session is purged.
   */
  async findSpent(hash: string): Promise<SpentRefreshToken | undefined> {
    this.spentReadText ??= this.db
      .selectFrom(TABLES.spentRefreshTokens)
      .select(["sessionId", "spentAt"])
      .where("hash", "=", "")
      .compile().sql;
    const [row] = await selectRows<{ sessionId: unknown; spentAt: unknown }>(this.database, this.spentReadText, [hash]);
    return row ? { sessionId: String(row.sessionId), spentAt: Number(row.spentAt) } : undefined;
  }

  /**
   * Replaces the refresh token `spent` by `next`, only while it is still the current one of a live
   * session: the database settles simultaneous rotations, exactly one of which succeeds.
   *
   * @returns whether this call rotated it.
   */
  async rotate(
    id: string,
    spent: string,
    next: { readonly refreshHash: string; readonly refreshedAt: number; readonly expiresAt: number },
    options: { readonly trx?: Kysely<AnyDB> } = {},
  ): Promise<boolean> {
    // The spent token is recorded by the sessions table's trigger, in this same statement.
    const values = { refreshHash: next.refreshHash, refreshedAt: next.refreshedAt, expiresAt: next.expiresAt };
    // On SQLite, rotations that arrive together share one durable commit.
    if (!options.trx && this.database.dialect === "sqlite") {
      const { sql, order } = this.rotationSql();
      const parameters = order.map((name) => (name === "id" ? id : name === "spent" ? spent : values[name]));
      return (await this.database.writes.run(sql, parameters)) === 1;
    }
    const result = await this.rotation(options.trx ?? this.db, values, id, spent).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private rotation(db: Kysely<AnyDB>, values: Record<string, unknown>, id: unknown, spent: unknown) {
    return db.updateTable(TABLES.sessions).set(values).where("id", "=", id).where("refreshHash", "=", spent).where("revokedAt", "is", null);
  }

  /** The rotation's SQL, built once, with the order its parameters take (read off a compilation with markers). */
  private rotationSql(): { readonly sql: string; readonly order: readonly RotationParameter[] } {
    if (this.rotationText) return this.rotationText;
    const markers: Record<RotationParameter, string> = {
      refreshHash: "\u0000refreshHash",
      refreshedAt: "\u0000refreshedAt",
      expiresAt: "\u0000expiresAt",
      id: "\u0000id",
      spent: "\u0000spent",
    };
    const { id, spent, ...values } = markers;
    const compiled = this.rotation(this.db, values, id, spent).compile();
    const byMarker = new Map(Object.entries(markers).map(([name, marker]) => [marker, name as RotationParameter]));
    const order = compiled.parameters.map((parameter) => {
      const name = byMarker.get(parameter as string);
      if (!name) throw new Error("unexpected parameter in the rotation's SQL");
      return name;
    });
    this.rotationText = { sql: compiled.sql, order };
    return this.rotationText;
  }

  /**
   * Revokes one live session, of `userId` when given.
   * @returns `false` when there was no such live session.
   */
  async revoke(id: string, now: number, options: { readonly userId?: string; readonly trx?: Kysely<AnyDB> } = {}): Promise<boolean> {
    if (id.length === 0 || id.length > MAX_ID_LENGTH || id.includes("\u0000")) return false;
    let query = (options.trx ?? this.db)
      .updateTable(TABLES.sessions)
      .set({ revokedAt: now })
      .where("id", "=", id)
      .where("revokedAt", "is", null)
      .where("expiresAt", ">", now);
    if (options.userId !== undefined) query = query.where("userId", "=", options.userId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Revokes one live session as {@link revoke} does and, when it did, runs `within` in the same
   * transaction with the session.
   */
  async revokeWith(id: string, now: number, within: SessionWithin, options: { readonly userId?: string } = {}): Promise<boolean> {
    return writeTransaction(this.database, async (trx) => {
      if (!(await this.revoke(id, now, { ...options, trx }))) return false;
      const row = await trx.selectFrom(TABLES.sessions).select("userId").where("id", "=", id).executeTakeFirstOrThrow();
      await within(trx, { id, userId: String(row.userId) });
      return true;
    });
  }

  /** Runs `work` in one write transaction: several revocations and the events that record them commit together. */
  inTransaction<T>(work: (trx: Kysely<AnyDB>) => Promise<T>): Promise<T> {
    return writeTransaction(this.database, work);
  }

  /**
   * Revokes every live session of a user, but `except`.
   * @returns how many were revoked.
   */
  async revokeAllOf(userId: string, now: number, options: RevokeOptions = {}): Promise<number> {
    let query = (options.trx ?? this.db)
      .updateTable(TABLES.sessions)
      .set({ revokedAt: now })
      .where("userId", "=", userId)
      .where("revokedAt", "is", null);
    if (options.except !== undefined) query = query.where("id", "!=", options.except);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Whether a session is live inside `trx`, holding it until `trx` ends: a revocation of it (a
   * password reset, say) waits for `trx` to commit, or `trx` reads it revoked. PostgreSQL takes a
   * share lock on the row; SQLite's write transactions run one at a time already.
   */
  async holdLive(trx: Kysely<AnyDB>, id: string, now: number): Promise<boolean> {
    const query = trx
      .selectFrom(TABLES.sessions)
      .select("id")
      .where("id", "=", id)
      .where("revokedAt", "is", null)
      .where("expiresAt", ">", now);
    const row = await (this.database.dialect === "postgres" ? query.forShare() : query).executeTakeFirst();
    return row !== undefined;
  }

  /** A user's live sessions, newest first. */
  async listActive(userId: string, now: number): Promise<SessionRow[]> {
    const rows = await this.db
      .selectFrom(TABLES.sessions)
      .selectAll()
      .where("userId", "=", userId)
      .where("revokedAt", "is", null)
      .where("expiresAt", ">", now)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .execute();
    return rows.map(toSessionRow);
  }

  /**
   * Deletes sessions that ended (expired or revoked) before `before`, with their spent refresh
   * tokens (the foreign key cascades): a user's, or, with `limit`, at most that many of anyone's.
   *
   * @returns how many rows were deleted.
   */
  async purge(before: number, options: { readonly userId?: string; readonly limit?: number } = {}): Promise<number> {
    let ended = this.db
      .selectFrom(TABLES.sessions)
      .select("id")
      .where((eb) => eb.or([eb("expiresAt", "<", before), eb("revokedAt", "<", before)]));
    if (options.userId !== undefined) ended = ended.where("userId", "=", options.userId);
    if (options.limit !== undefined) ended = ended.limit(options.limit);
    const result = await this.db.deleteFrom(TABLES.sessions).where("id", "in", ended).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** How many rows the sessions table holds, or with `spent` the table of spent refresh tokens (for tests and tools). */
  async count(table: "sessions" | "spent" = "sessions"): Promise<number> {
    const row = await this.db
      .selectFrom(table === "spent" ? TABLES.spentRefreshTokens : TABLES.sessions)
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }
}
