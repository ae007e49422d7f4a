import { createPostgresDatabase, type TestDatabase } from "@domain-auth/test-support/databases";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/admin.js";

let target: TestDatabase;
let database: Database;

beforeAll(async () => {
  target = await createPostgresDatabase();
  database = await openDatabase(target.url);
});
afterAll(async () => {
  await database?.close();
  await target?.drop();
});

it("reads PostgreSQL's int8 as numbers on its own pool, leaving pg's global parsers as they were", async () => {
  const { rows } = await sql<{ n: unknown }>`select count(*) as n from (values (1), (2)) as t(x)`.execute(database.db);
  expect(rows[0]?.n).toBe(2);
  expect(pg.types.getTypeParser(20, "text")("7")).toBe("7");
  const other = new pg.Client({ connectionString: target.url });
  await other.connect();
  try {
    expect((await other.query("select 7::int8 as n")).rows[0].n).toBe("7");
  } finally {
    await other.end();
  }
});
