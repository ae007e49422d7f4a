import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** A throwaway database: its URL, and how to drop it. */
export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** Where the tests find PostgreSQL: `TEST_POSTGRES_URL`, else the local server as `postgres`. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function runAsAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh SQLite file in its own temp folder. */
export function createSqliteDatabase(): TestDatabase {
  const directory = mkdtempSync(join(tmpdir(), "domain-auth-test-"));
  return { url: `file:${join(directory, "app.db")}`, drop: async () => rmSync(directory, { recursive: true, force: true }) };
}

/** A fresh, uniquely named PostgreSQL database, dropped by `drop()`. */
export async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `domain_auth_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await runAsAdmin(`create database "${name}"`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => runAsAdmin(`drop database if exists "${name}" with (force)`) };
}

/** The backends every suite that touches a database runs against: in process, and behind a production server. */
export const BACKENDS = [
  { name: "sqlite", create: async () => createSqliteDatabase() },
  { name: "postgres", create: createPostgresDatabase },
] as const;
