import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf, TEST_SECRET } from "@domain-auth/test-support/domains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/admin.js";
import { type Auth, createAuth } from "../../src/index.js";
import { TABLES } from "../../src/store/migrate.js";
import { purgeExpiredCounters, THROTTLE_SWEEP_BATCH } from "../../src/throttle/limiter.js";
import { type ApiClient, apiClient } from "../support/client.js";
import { eventually } from "../support/events.js";

/** More expired counters than one batch of the sweep deletes (checked below). */
const EXPIRED = 2_500;
const LIVE = 3;

/**
 * The throttle table (login, register, e-mail and passkey counters) keeps no row past its expiry:
 * expired counters are purged in bounded batches, at most once a minute per instance, so a
 * credential-stuffing run over a million emails does not leave a million rows. The limiter
 * writes each row's expiry on the wall clock, so expiries are set in the past directly.
 */
describe.each(BACKENDS)("expired throttle counters are purged, on $name", (backend) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let auth: Auth;
  let api: ApiClient;

  /** Writes `count` counters named `<prefix>:<n>` that expire at `expire`. */
  async function seed(prefix: string, count: number, expire: number): Promise<void> {
    const rows = Array.from({ length: count }, (_, index) => ({ key: `${prefix}:${index}`, points: 1, expire }));
    for (let start = 0; start < rows.length; start += 500) {
      await database.db
        .insertInto(TABLES.throttle)
        .values(rows.slice(start, start + 500))
        .execute();
    }
  }

  async function countRows(prefix: string): Promise<number> {
    const row = await database.db
      .selectFrom(TABLES.throttle)
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .where("key", "like", `${prefix}%`)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  const failedLogin = (email: string) =>
    api.post("/api/user/login", { email, password: "not the password" }, { headers: { "x-domain-auth-peer": "203.0.113.50" } });

  beforeAll(async () => {
    testDatabase = await backend.create();
    database = await openDatabase(testDatabase.url);
    auth = await createAuth({ domain: domainOf(BLOG_YAML), database, secret: TEST_SECRET, bcryptCost: 4 });
    api = apiClient(auth);
  });
  afterAll(async () => {
    await auth?.close();
    await database?.close();
    await testDatabase?.drop();
  });

  it("sweeps expired counters after a count, in batches, and keeps the live ones", async () => {
    await seed("stale-email", EXPIRED, Date.now() - 60_000);
    await seed("live-email", LIVE, Date.now() + 600_000);
    expect(await countRows("stale-email")).toBe(EXPIRED);
    expect((await failedLogin("first@example.com")).status).toBe(401);
    await eventually(async () => (await countRows("stale-email")) === 0);
    expect(await countRows("live-email")).toBe(LIVE);
    // The failed login's own counters (its email's and its address's) are live.
    expect(await countRows("login-")).toBe(2);
    // More than two batches' worth went in that one sweep.
    expect(THROTTLE_SWEEP_BATCH).toBeLessThan(EXPIRED / 2);
  });

  it("sweeps at most once a minute per instance; purging by hand deletes what expired meanwhile", async () => {
    await seed("later-email", 10, Date.now() - 1_000);
    expect((await failedLogin("second@example.com")).status).toBe(401);
    await auth.tools.events?.settle();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await countRows("later-email")).toBe(10);
    expect(await purgeExpiredCounters(database, Date.now())).toBe(10);
    expect(await countRows("later-email")).toBe(0);
    expect(await countRows("live-email")).toBe(LIVE);
  });
});
