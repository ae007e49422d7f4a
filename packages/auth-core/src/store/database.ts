import { resolve } from "node:path";
import type SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import type pg from "pg";
import { importOptionalPeer } from "../optional-peer.js";
import type { AnyDB } from "./any-db.js";
import { type CommitGroup, createCommitGroup } from "./commit-group.js";
import { createRowReader, type RowReader } from "./row-reader.js";
import { openSqliteFile } from "./sqlite-open.js";
import { type StatementCache, withStatementCache } from "./statement-cache.js";

export type { AnyDB } from "./any-db.js";

/** An open database: the query builder and the driver-level client beneath it. */
export type Database =
  | {
      readonly dialect: "sqlite";
      readonly db: Kysely<AnyDB>;
      readonly client: SQLite.Database;
      /** The client's statements, each prepared once (kysely's queries go through them too). */
      readonly statements: StatementCache;
      /** Single-statement writes that arrive together, committed together (`commit-group.ts`). */
      readonly writes: CommitGroup;
      /** Reads with statements of their own, for reads outside kysely (`select-rows.ts`). */
      readonly rows: RowReader;
      close(): Promise<void>;
    }
  | { readonly dialect: "postgres"; readonly db: Kysely<AnyDB>; readonly client: pg.Pool; close(): Promise<void> };

export interface OpenDatabaseOptions {
  /** How long a query waits for a lock or a connection before failing, in ms. @default 5000 */
  busyTimeoutMs?: number;
  /** Largest number of PostgreSQL connections. @default 10 */
  maxConnections?: number;
}

/** The SQLite file path of a `file:` URL, resolved against the working directory. */
export function sqlitePathOf(url: string): string {
  const path = url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
  return path === ":memory:" ? path : resolve(path);
}

const INT8_OID = 20;

/**
 * PostgreSQL's int8 comes back as a string by default; our integers are safe integers. Set on our
 * pool only, never on `pg`'s global parsers, which other code in the process may rely on.
 */
function poolTypesOf(driver: typeof pg) {
  return {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === INT8_OID ? (value: string) => Number(value) : driver.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
}

/**
 * Opens the database a URL names: `file:<path>` for SQLite (WAL, durable commits, busy timeout, foreign keys),
 * `postgres://…` or `postgresql://…` for PostgreSQL. Checks that it answers.
 *
 * @throws {Error} with a one-line message when the URL is not understood or the database is unreachable.
 */
export async function openDatabase(url: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (url.startsWith("file:")) {
    const client = await openSqliteFile(sqlitePathOf(url), busyTimeoutMs);
    const statements = withStatementCache(client);
    const db = new Kysely<AnyDB>({ dialect: new SqliteDialect({ database: statements }) });
    const writes = createCommitGroup(client, statements, db);
    return { dialect: "sqlite", db, client, statements, writes, rows: createRowReader(client), close: () => db.destroy() };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { default: driver } = await importOptionalPeer("pg", () => import("pg"));
    const client = new driver.Pool({
      connectionString: url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: busyTimeoutMs,
      statement_timeout: busyTimeoutMs * 2,
      lock_timeout: busyTimeoutMs,
      types: poolTypesOf(driver),
    });
    client.on("error", () => {});
    try {
      await client.query("select 1");
    } catch (cause) {
      await client.end().catch(() => {});
      throw new Error(`cannot reach the PostgreSQL database: ${(cause as Error).message}`, { cause });
    }
    const db = new Kysely<AnyDB>({ dialect: new PostgresDialect({ pool: client }) });
    return { dialect: "postgres", db, client, close: () => db.destroy() };
  }
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgres:// (PostgreSQL), got '${url.split(":")[0]}:…'`);
}
