import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/admin.js";
import type { EventStore } from "../../src/events/event-store.js";
import { EVENT_INDEXES } from "../../src/store/event-table.js";
import { eventVolume, planOf } from "../support/event-volume.js";

/**
 * Pages of events are ranges of an index (docs/events.md: the events of 100,000 logins page as fast as
 * those of 100): for everyone's, one user's and one type's events, first page and a deep one, the
 * database reads the `(…, at, id)` index newest first and never sorts.
 */

const COUNT = 100_000;

describe.each(BACKENDS)("the plans of event pages among 100,000 events on $name", (backend) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let store: EventStore;

  beforeAll(async () => {
    testDatabase = await backend.create();
    ({ database, store } = await eventVolume(testDatabase, COUNT));
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  /** A position deep in the table: the 60,000th newest event. */
  async function deepPosition(): Promise<{ at: number; id: string }> {
    const rows = await store.page({ limit: 1, before: { at: Number.MAX_SAFE_INTEGER, id: "" } });
    const newest = rows[0];
    if (!newest) throw new Error("no events");
    return { at: newest.at - 60_000 * 10, id: "ffffffffffffffffffffffffffff" };
  }

  // A common type (a quarter of the rows) may as well be read from the time index, filtered as it goes.
  it.each([
    ["everyone's", {}, [EVENT_INDEXES.everyone]],
    ["one user's", { userId: "user-7" }, [EVENT_INDEXES.byUser]],
    ["one type's", { type: "logout" as const }, [EVENT_INDEXES.byType, EVENT_INDEXES.everyone]],
    ["one user's of one type", { userId: "user-6", type: "logout" as const }, [EVENT_INDEXES.byUser, EVENT_INDEXES.byType]],
  ])("%s: a range of an (…, at, id) index, newest first, first page and deep", async (_label, filter, indexes) => {
    for (const before of [undefined, await deepPosition()]) {
      const query = store.pageQuery({ ...filter, limit: 51, ...(before ? { before } : {}) }).compile();
      const plan = await planOf(database, query);
      expect(
        indexes.some((index) => new RegExp(`\\b${index}\\b`).test(plan)),
        plan,
      ).toBe(true);
      expect(plan, plan).not.toMatch(/TEMP B-TREE|Sort|Seq Scan|SCAN domain_auth_events(?! USING)/i);
      const rows = await store.page({ ...filter, limit: 50, ...(before ? { before } : {}) });
      expect(rows).toHaveLength(50);
    }
  });

  it("purges the oldest by the time index", async () => {
    const plan = await planOf(
      database,
      database.db.selectFrom("domain_auth_events").select("id").where("at", "<", 1).orderBy("at").limit(1000).compile(),
    );
    expect(plan).toContain(EVENT_INDEXES.everyone);
  });
});
