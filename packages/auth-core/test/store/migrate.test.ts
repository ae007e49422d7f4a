import { afterEach, describe, expect, it } from "vitest";
import { migrate, openDatabase, RecordStore } from "../../src/index.js";
import { BACKENDS, createPostgresDatabase, type TestDatabase } from "../support/backends.js";
import { domainOf } from "../support/domains.js";

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
        "create table review",
        "create index product__sku__unique",
      ]),
    );
    const store = new RecordStore(second);
    const product2 = v2.entities.find((entity) => entity.name === "Product");
    if (!product2) throw new Error("no Product");
    expect(await store.find(product2, kept.id)).toMatchObject({ title: "Lamp", price: null, sku: null });
    await store.insert(product2, { title: "Desk", sku: "D-1", price: 12.5 });
    await expect(store.insert(product2, { title: "Chair", sku: "D-1" })).rejects.toThrow(/unique/);
  });
});

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
