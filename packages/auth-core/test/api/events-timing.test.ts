import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/admin.js";
import type { EventQuery, EventStore } from "../../src/events/event-store.js";
import { eventVolume, type Spread } from "../support/event-volume.js";
import { median } from "../support/timing.js";

/**
 * docs/events.md at volume: a page of the newest 50 events among 100,000 costs about what it costs
 * among 100 (keyset pages on the `(…, at, id)` indexes; `events-keyset.test.ts` checks the plans).
 * Only the ratio of two medians is compared, never a time.
 */

/** Rounds of page reads whose median is compared, and the ratio allowed between the two tables. */
const ROUNDS = 300;
const MAX_RATIO = 2;

interface Volume {
  readonly testDatabase: TestDatabase;
  readonly database: Database;
  readonly store: EventStore;
}

/** The median time of reading the page `query` asks for, in ms, after a warm-up. */
async function medianPageTime(store: EventStore, query: EventQuery): Promise<number> {
  for (let round = 0; round < 50; round++) await store.page(query);
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await store.page(query);
    times.push(performance.now() - started);
  }
  return median(times);
}

describe.each(BACKENDS)("pages of events at volume on $name", (backend) => {
  let small: Volume;
  let large: Volume;

  beforeAll(async () => {
    const open = async (count: number, spread?: Spread): Promise<Volume> => {
      const testDatabase = await backend.create();
      return { testDatabase, ...(await eventVolume(testDatabase, count, spread)) };
    };
    // The 100 are one user's sign-ins, so every page below holds 50 events in both tables.
    small = await open(100, { users: 1, types: 1 });
    large = await open(100_000);
  }, 120_000);
  afterAll(async () => {
    for (const volume of [small, large]) {
      await volume?.database.close();
      await volume?.testDatabase.drop();
    }
  });

  it.each([
    ["everyone's newest 50", { limit: 50 }],
    ["one user's newest 50", { limit: 50, userId: "user-0" }],
    ["one type's newest 50", { limit: 50, type: "login.succeeded" as const }],
  ])("%s among 100,000 events cost at most twice as much as among 100", async (_label, query) => {
    // Alternated, so that a slow moment of the machine falls on both.
    const timesOf = { small: [] as number[], large: [] as number[] };
    for (let turn = 0; turn < 3; turn++) {
      timesOf.small.push(await medianPageTime(small.store, query));
      timesOf.large.push(await medianPageTime(large.store, query));
    }
    expect((await large.store.page(query)).length).toBe((await small.store.page(query)).length);
    const ratio = median(timesOf.large) / median(timesOf.small);
    expect(ratio, `100,000 events: ${median(timesOf.large).toFixed(3)} ms, 100: ${median(timesOf.small).toFixed(3)} ms`).toBeLessThan(
      MAX_RATIO,
    );
  });
});
