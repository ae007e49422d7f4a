import { BACKENDS, createPostgresDatabase, type TestDatabase } from "@domain-auth/test-support/databases";
import { domainOf } from "@domain-auth/test-support/domains";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type Database, migrate, openDatabase, RecordStore } from "../../src/admin.js";
import { type SessionRow, SessionStore } from "../../src/sessions/session-store.js";

const V1 = `name: shop
entities:
  User:
    fields:
      email: { type: string, required: true }
      password: { type: string, required: true }
  Product:
    fields:
      title: { type: string, required: true }
auth: { type: jwt }
`;

const V2 = `name: shop
entities:
  User:
    fields:
      email: { type: string, required: true }
      password: { type: string, required: true }
      nickname: string
  Product:
    fields:
      title: { type: string, required: true }
      price: { type: number, min: 0 }
      sku: { type: string, unique: true }
      maker: { type: ref, to: User }
  Review:
    fields:
      stars: { type: integer, min: 1, max: 5 }
      product: { type: ref, to: Product }
auth: { type: jwt }
`;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe.each(BACKENDS)("schema migrations on $name", (backend) => {
  async function fresh(): Promise<TestDatabase> {
    const database = await backend.create();
    cleanup.push(() => database.drop());
    return database;
  }

  it("creates the tables, records each step, and runs nothing the second time", async () => {
    const database = await openDatabase((await fresh()).url);
    cleanup.push(() => database.close());
    const ran = await migrate(database, domainOf(V1));
    expect(ran).toEqual(expect.arrayContaining(["create table user", "create table product", "create index user__email__unique"]));
    expect(await migrate(database, domainOf(V1))).toEqual([]);
  });

  it("evolves the schema when domain.yaml grows, keeping the data", async () => {
    const target = await fresh();
    const first = await openDatabase(target.url);
    const v1 = domainOf(V1);
    await migrate(first, v1);
    const product = v1.entities.find((entity) => entity.name === "Product");
    if (!product) throw new Error("no Product");
    const kept = await new RecordStore(first).insert(product, { title: "Lamp" });
    await first.close();

    const second = await openDatabase(target.url);
    cleanup.push(() => second.close());
    const v2 = domainOf(V2);
    const ran = await migrate(second, v2);
    expect(ran).toEqual(
      expect.arrayContaining([
        "add column user.nickname",
        "add column product.price",
        "add column product.sku",
        "add column product.maker",
        "create table review",
        "create index product__sku__unique",
        "create index product__maker__ref",
        "create index review__product__ref",
      ]),
    );
    const store = new RecordStore(second);
    const product2 = v2.entities.find((entity) => entity.name === "Product");
    if (!product2) throw new Error("no Product");
    expect(await store.find(product2, kept.id)).toMatchObject({ title: "Lamp", price: null, sku: null });
    await store.insert(product2, { title: "Desk", sku: "D-1", price: 12.5 });
    await expect(store.insert(product2, { title: "Chair", sku: "D-1" })).rejects.toThrow(/unique/);
  });

  it("adds the index of each ref column to a database migrated before such indexes existed", async () => {
    const database = await openDatabase((await fresh()).url);
    cleanup.push(() => database.close());
    await migrate(database, domainOf(V2));
    // The state a database was left in by a version that did not index ref columns.
    for (const index of ["product__maker__ref", "review__product__ref"]) {
      await database.db.schema.dropIndex(index).execute();
      await database.db.deleteFrom("domain_auth_migrations").where("name", "=", `create index ${index}`).execute();
    }
    expect((await migrate(database, domainOf(V2))).sort()).toEqual([
      "create index product__maker__ref",
      "create index review__product__ref",
    ]);
    expect(await indexNames(database)).toEqual(expect.arrayContaining(["product__maker__ref", "review__product__ref"]));
    expect(await migrate(database, domainOf(V2))).toEqual([]);
  });

  it("adds the sessions table to a database migrated before sessions existed, keeping its users", async () => {
    const database = await openDatabase((await fresh()).url);
    cleanup.push(() => database.close());
    await migrate(database, domainOf(V1));
    const model = domainOf(V1);
    const store = new RecordStore(database);
    const user = model.entities.find((entity) => entity.name === "User");
    if (!user) throw new Error("V1 has a User");
    await store.insert(user, { email: "kept@example.com", passwordHash: "x", tokenVersion: 1, emailVerified: 0, everVerified: 0 });
    // The state a database was left in by a version without sessions.
    await database.db.schema.dropTable("domain_auth_spent_refresh_tokens").execute();
    await database.db.schema.dropTable("domain_auth_sessions").execute();
    await database.db.deleteFrom("domain_auth_migrations").where("name", "like", "%domain_auth_s%").execute();
    expect((await migrate(database, model)).sort()).toEqual([
      "copy into domain_auth_spent_refresh_tokens the spent refresh tokens of domain_auth_sessions",
      "create index domain_auth_sessions__expiresAt",
      "create index domain_auth_sessions__previousHash",
      "create index domain_auth_sessions__refreshHash",
      "create index domain_auth_sessions__userId",
      "create index domain_auth_spent_refresh_tokens__sessionId",
      "create table domain_auth_sessions",
      "create table domain_auth_spent_refresh_tokens",
      "create trigger domain_auth_sessions__spend",
    ]);
    expect(await indexNames(database)).toEqual(
      expect.arrayContaining(["domain_auth_sessions__refreshHash", "domain_auth_sessions__userId"]),
    );
    expect(await store.findByEmail(user, "kept@example.com")).toBeDefined();
    expect(await migrate(database, model)).toEqual([]);
  });
});

describe.each(BACKENDS)("the spent refresh tokens migration on $name", (backend) => {
  const SPENT_STEPS = [
    "copy into domain_auth_spent_refresh_tokens the spent refresh tokens of domain_auth_sessions",
    "create index domain_auth_spent_refresh_tokens__sessionId",
    "create table domain_auth_spent_refresh_tokens",
    "create trigger domain_auth_sessions__spend",
  ];

  /** A session as a version before the spent table left it: rotated once, its spent token kept on its row. */
  function rotatedSession(id: string, userId: string, now: number): SessionRow {
    return {
      id,
      userId,
      createdAt: now,
      refreshedAt: now,
      expiresAt: now + 60_000,
      userAgent: null,
      address: null,
      revokedAt: null,
      refreshHash: `current-${id}`,
      previousHash: `previous-${id}`,
      rotatedAt: now,
    };
  }

  it("keeps the token each session spent last, then records every rotation's in the same statement", async () => {
    const created = await backend.create();
    const database = await openDatabase(created.url);
    try {
      const model = domainOf(V1);
      await migrate(database, model);
      // The state a database was left in by a version without the spent table.
      const trigger = sql`drop trigger domain_auth_sessions__spend`;
      await (database.dialect === "postgres" ? sql`${trigger} on domain_auth_sessions` : trigger).execute(database.db);
      await database.db.schema.dropTable("domain_auth_spent_refresh_tokens").execute();
      await database.db.deleteFrom("domain_auth_migrations").where("name", "like", "%spen%").execute();
      const store = new SessionStore(database);
      const now = Date.now();
      await store.insert(rotatedSession("kept", "u1", now));
      await store.insert({ ...rotatedSession("fresh", "u1", now), previousHash: null, rotatedAt: null });

      expect((await migrate(database, model)).sort()).toEqual(SPENT_STEPS);
      expect(await store.findSpent("previous-kept")).toEqual({ sessionId: "kept", spentAt: now });
      expect(await store.count("spent")).toBe(1);
      const next = { refreshHash: "next-kept", refreshedAt: now + 5, expiresAt: now + 60_000 };
      expect(await store.rotate("kept", "current-kept", next)).toBe(true);
      expect(await store.findSpent("current-kept")).toEqual({ sessionId: "kept", spentAt: now + 5 });
      expect(await store.rotate("kept", "current-kept", { ...next, refreshHash: "other" })).toBe(false);
      expect(await store.count("spent")).toBe(2);
      expect(await migrate(database, model)).toEqual([]);

      // Purging a session takes its spent tokens with it.
      await store.revoke("kept", now);
      expect(await store.purge(now + 1)).toBe(1);
      expect(await store.count("spent")).toBe(0);
    } finally {
      await database.close();
      await created.drop();
    }
  });
});

describe.each(BACKENDS)("the e-mail migration on $name", (backend) => {
  it("adds the tokens table and the verification columns to a database from before e-mail, its users unverified", async () => {
    const created = await backend.create();
    const database = await openDatabase(created.url);
    try {
      const model = domainOf(V1);
      const user = model.entities.find((entity) => entity.name === "User");
      if (!user) throw new Error("V1 has a User");
      await migrate(database, model);
      await database.db.schema.dropTable("domain_auth_tokens").execute();
      await database.db.schema.alterTable(user.table).dropColumn("emailVerified").execute();
      await database.db.schema.alterTable(user.table).dropColumn("everVerified").execute();
      await database.db.deleteFrom("domain_auth_migrations").where("name", "like", "%domain_auth_tokens%").execute();
      await database.db.deleteFrom("domain_auth_migrations").where("name", "like", "%Verified%").execute();
      await database.db
        .insertInto(user.table)
        .values({ id: "old", email: "old@example.com", passwordHash: "x", tokenVersion: 1, createdAt: "2020", updatedAt: "2020" })
        .execute();
      const ran = await migrate(database, model);
      expect(ran).toEqual(
        expect.arrayContaining([
          "create table domain_auth_tokens",
          `add column ${user.table}.emailVerified`,
          `add column ${user.table}.everVerified`,
        ]),
      );
      const old = await new RecordStore(database).findByEmail(user, "old@example.com");
      expect(old).toMatchObject({ emailVerified: false, everVerified: false });
      expect(await migrate(database, model)).toEqual([]);
    } finally {
      await database.close();
      await created.drop();
    }
  });
});

describe.each(BACKENDS)("the mfa token version migration on $name", (backend) => {
  it("adds the token version to an mfa token table made before it, keeping its rows (without a version: refused)", async () => {
    const created = await backend.create();
    const database = await openDatabase(created.url);
    try {
      const model = domainOf(V1);
      await migrate(database, model);
      await database.db.schema.alterTable("domain_auth_mfa_tokens").dropColumn("tokenVersion").execute();
      await database.db.deleteFrom("domain_auth_migrations").where("name", "like", "%tokenVersion%").execute();
      await database.db
        .insertInto("domain_auth_mfa_tokens")
        .values({ tokenHash: "old", userId: "u", kind: "challenge", createdAt: 1, expiresAt: Date.now() + 60_000, usedAt: null })
        .execute();
      expect(await migrate(database, model)).toEqual(["add column domain_auth_mfa_tokens.tokenVersion"]);
      const rows = await database.db.selectFrom("domain_auth_mfa_tokens").selectAll().execute();
      expect(rows).toEqual([expect.objectContaining({ tokenHash: "old", tokenVersion: null })]);
      expect(await migrate(database, model)).toEqual([]);
    } finally {
      await database.close();
      await created.drop();
    }
  });
});

async function indexNames(database: Database): Promise<string[]> {
  const query =
    database.dialect === "postgres"
      ? sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`
      : sql<{ name: string }>`select name from sqlite_master where type = 'index'`;
  return (await query.execute(database.db)).rows.map((row) => row.name);
}

// better-sqlite3 waits for a lock synchronously, so several SQLite connections in one process
// would wait on each other; separate processes on one SQLite file are covered by the hardening suite.
describe("concurrent migrations on postgres", () => {
  it("is safe when several instances migrate at once", async () => {
    const target = await createPostgresDatabase();
    cleanup.push(() => target.drop());
    const databases = await Promise.all(Array.from({ length: 3 }, () => openDatabase(target.url)));
    cleanup.push(async () => {
      for (const database of databases) await database.close();
    });
    const runs = await Promise.all(databases.map((database) => migrate(database, domainOf(V2))));
    const steps = runs.flat();
    expect(new Set(steps).size).toBe(steps.length);
    expect(steps).toContain("create table review");
  });
});
