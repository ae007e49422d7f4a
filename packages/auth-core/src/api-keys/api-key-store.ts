import type { Kysely } from "kysely";
import type { EntityModel } from "../config/index.js";
import { credentialUserRead } from "../store/credential-user-read.js";
import type { AnyDB, Database } from "../store/database.js";
import { TABLES } from "../store/migrate.js";
import type { SignedInUser } from "../store/rows.js";
import { selectRows } from "../store/select-rows.js";

/** A stored API key: never the key, only its SHA-256. Times in ms since the epoch. */
export interface ApiKeyRow {
  readonly id: string;
  readonly userId: string;
  readonly keyHash: string;
  readonly name: string;
  /** The scopes it is narrowed to; `null`: every operation its user may perform. */
  readonly scopes: readonly string[] | null;
  readonly createdAt: number;
  /** `null`: it never expires. */
  readonly expiresAt: number | null;
  readonly lastUsedAt: number | null;
}

/** What a key check reads of the key: enough to tell it is live, and whether its use is worth writing down. */
export type CheckedKey = Pick<ApiKeyRow, "id" | "userId" | "scopes" | "expiresAt" | "lastUsedAt">;

/** A key and its user, read together by the key's hash. */
export interface KeyWithUser {
  readonly key: CheckedKey;
  readonly user: SignedInUser;
}

const COLUMNS = ["id", "userId", "keyHash", "name", "scopes", "createdAt", "expiresAt", "lastUsedAt"] as const;
const CHECK_COLUMNS = ["id", "userId", "scopes", "expiresAt", "lastUsedAt"] as const;
/** Key columns come back under this prefix, beside the user's own columns. */
const PREFIX = "domain_auth_key_";

const timeOf = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const scopesOf = (value: unknown): string[] | null =>
  value === null || value === undefined ? null : (JSON.parse(String(value)) as string[]);

function toApiKey(row: Record<string, unknown>): ApiKeyRow {
  return {
    id: String(row.id),
    userId: String(row.userId),
    keyHash: String(row.keyHash),
    name: String(row.name),
    scopes: scopesOf(row.scopes),
    createdAt: Number(row.createdAt),
    expiresAt: timeOf(row.expiresAt),
    lastUsedAt: timeOf(row.lastUsedAt),
  };
}

/** The key check's read of one user table: its SQL, built once, and how a row becomes its result. */
interface KeyCheckRead {
  readonly sql: string;
  toResult(row: Record<string, unknown>): KeyWithUser;
}

/** The API keys table (docs/api-keys.md): one row per live key, found by its hash in one indexed read joined with its user. */
export class ApiKeyStore {
  private readonly checkReads = new Map<string, KeyCheckRead>();

  constructor(readonly database: Database) {}

  private get db(): Kysely<AnyDB> {
    return this.database.db;
  }

  /** The key of this hash with its user, in one read (never the user's password hash); `undefined` for none. */
  async findForCheck(entity: EntityModel, keyHash: string): Promise<KeyWithUser | undefined> {
    const read = this.checkReadOf(entity);
    const [row] = await selectRows<Record<string, unknown>>(this.database, read.sql, [keyHash]);
    return row ? read.toResult(row) : undefined;
  }

  /** The SQL of the key check for this user table, its one parameter the key's hash (built once; tests read its plan). */
  checkSqlOf(entity: EntityModel): string {
    return this.checkReadOf(entity).sql;
  }

  private checkReadOf(entity: EntityModel): KeyCheckRead {
    const known = this.checkReads.get(entity.table);
    if (known) return known;
    const joined = credentialUserRead(this.db, this.database, entity, {
      table: TABLES.apiKeys,
      columns: CHECK_COLUMNS,
      keyColumn: "keyHash",
      prefix: PREFIX,
    });
    const read: KeyCheckRead = {
      sql: joined.sql,
      toResult(row) {
        const key = (name: string) => joined.credentialOf(row, name);
        return {
          user: joined.userOf(row),
          key: {
            id: String(key("id")),
            userId: String(key("userId")),
            scopes: scopesOf(key("scopes")),
            expiresAt: timeOf(key("expiresAt")),
            lastUsedAt: timeOf(key("lastUsedAt")),
          },
        };
      },
    };
    this.checkReads.set(entity.table, read);
    return read;
  }

  /** A user's keys, oldest first. */
  async listOf(userId: string): Promise<ApiKeyRow[]> {
    const rows = await this.db
      .selectFrom(TABLES.apiKeys)
      .select([...COLUMNS])
      .where("userId", "=", userId)
      .orderBy("createdAt")
      .orderBy("id")
      .execute();
    return rows.map(toApiKey);
  }

  /** How many keys a user has. */
  async countOf(trx: Kysely<AnyDB>, userId: string): Promise<number> {
    const row = await trx
      .selectFrom(TABLES.apiKeys)
      .select((eb) => eb.fn.countAll().as("count"))
      .where("userId", "=", userId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async find(id: string): Promise<ApiKeyRow | undefined> {
    const row = await this.db
      .selectFrom(TABLES.apiKeys)
      .select([...COLUMNS])
      .where("id", "=", id)
      .executeTakeFirst();
    return row && toApiKey(row);
  }

  async insert(trx: Kysely<AnyDB>, row: ApiKeyRow): Promise<void> {
    await trx
      .insertInto(TABLES.apiKeys)
      .values({ ...row, scopes: row.scopes === null ? null : JSON.stringify(row.scopes) })
      .execute();
  }

  /** Deletes one key of a user; `false` when that user has no key of that id (any more). */
  async remove(trx: Kysely<AnyDB>, userId: string, id: string): Promise<boolean> {
    const result = await trx.deleteFrom(TABLES.apiKeys).where("id", "=", id).where("userId", "=", userId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Deletes every key of a user in `trx`, answering the id and name of each it deleted. */
  async removeEvery(trx: Kysely<AnyDB>, userId: string): Promise<{ id: string; name: string }[]> {
    const rows = await trx.selectFrom(TABLES.apiKeys).select(["id", "name"]).where("userId", "=", userId).orderBy("createdAt").execute();
    if (rows.length > 0) await trx.deleteFrom(TABLES.apiKeys).where("userId", "=", userId).execute();
    return rows.map((row) => ({ id: String(row.id), name: String(row.name) }));
  }

  /** Deletes every key of a user (their account is going). */
  async removeAll(trx: Kysely<AnyDB>, userId: string): Promise<void> {
    await trx.deleteFrom(TABLES.apiKeys).where("userId", "=", userId).execute();
  }

  /** Records a use at `now`, only if the last one written is older than `since` (a conditional update: one writer a minute). */
  async recordUse(id: string, now: number, since: number): Promise<void> {
    await this.db
      .updateTable(TABLES.apiKeys)
      .set({ lastUsedAt: now })
      .where("id", "=", id)
      .where((eb) => eb.or([eb("lastUsedAt", "is", null), eb("lastUsedAt", "<=", since)]))
      .execute();
  }
}
