import { randomBytes } from "node:crypto";
import pg from "pg";

/** Where the tests find PostgreSQL: `TEST_POSTGRES_URL`, else the local server as `postgres`. */
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function asAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, uniquely named PostgreSQL database: its URL, and how to drop it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `domain_auth_e2e_${randomBytes(6).toString("hex")}`;
  await asAdmin(`create database "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => asAdmin(`drop database if exists "${name}" with (force)`) };
}
