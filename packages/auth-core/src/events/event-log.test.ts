import { createSqliteDatabase, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillEvents } from "../../test/support/event-volume.js";
import { type Database, openDatabase } from "../store/database.js";
import { migrate } from "../store/migrate.js";
import { writeTransaction } from "../store/transaction.js";
import { EventLog } from "./event-log.js";
import { EventStore } from "./event-store.js";
import type { SecurityEvent } from "./event-view.js";

describe("the event log", () => {
  let testDatabase: TestDatabase;
  let database: Database;
  const clock = Date.UTC(2026, 6, 1);
  const heard: SecurityEvent[] = [];
  const errors: unknown[] = [];
  let log: EventLog;

  beforeAll(async () => {
    testDatabase = createSqliteDatabase();
    database = await openDatabase(testDatabase.url);
    await migrate(database, domainOf(BLOG_YAML));
    log = new EventLog(new EventStore(database), {
      now: () => clock,
      retentionDays: 90,
      onEvent: (event) => void heard.push(event),
      onError: (error) => errors.push(error),
    });
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  it("purges what is older than the retention in batches of 1,000, oldest first, and nothing newer", async () => {
    // 2,500 events from January 2026, 10 ms apart: all older than 90 days on the 1st of July.
    await fillEvents(database, 2_500);
    await writeTransaction(database, (trx) => log.write(trx, { type: "register", userId: "u1" }));
    expect(await log.purgeExpired()).toBe(2_500);
    expect((await log.page({ limit: 10 })).items.map((event) => event.type)).toEqual(["register"]);
  });

  it("gives events of one millisecond ids in the order they were recorded", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) ids.push((await log.write(database.db, { type: "logout" })).id);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => /^[0-9a-f]{28}$/.test(id))).toBe(true);
  });

  it("hears of nothing a rolled back transaction wrote", async () => {
    await log.settle();
    const before = heard.length;
    await expect(
      writeTransaction(database, async (trx) => {
        await log.write(trx, { type: "role.changed", userId: "u2" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await log.settle();
    expect(heard.length).toBe(before);
    expect((await log.page({ limit: 100, type: "role.changed" })).items).toEqual([]);
  });

  it("cuts a User-Agent to 256 characters", async () => {
    const event = await log.write(database.db, { type: "login.failed", userAgent: "x".repeat(1000) });
    expect(event.userAgent).toHaveLength(256);
    expect(errors).toEqual([]);
  });
});
