import { ADMIN, type SignedIn, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/admin.js";
import type { EventSummary, SecurityEvent } from "../../src/browser.js";
import { bucketCountsQuery, summarizeEvents, summaryRange, topFailingAddressesQuery } from "../../src/events/event-summary.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { EVENT_INDEXES } from "../../src/store/event-table.js";
import { ADDRESS_HEADER, clientAddressFromHeader } from "../support/client-address.js";
import { useClockedPair } from "../support/clocked.js";
import { Conformance } from "../support/conformance.js";
import { eventVolume, planOf } from "../support/event-volume.js";
import { readAllEvents, settled } from "../support/events.js";
import { clockOf, currentCode, enrolTotp, wrongCode } from "../support/second-factors.js";

/**
 * `GET /api/<auth>/events/summary` (docs/events.md#the-activity-summary) on both databases, from
 * events made through the API on a clock the test moves: hourly and daily buckets, zeros filled, a
 * sign-in with a second factor counted once, the addresses with the most failures in order, the
 * window and who may read it; and, among many events, counts made by an index's range.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SIGN_INS = new Set(["login.succeeded"]);
const FAILURES = new Set(["login.failed", "mfa.failed"]);

const A = "203.0.113.7";
const B = "203.0.113.8";
const C = "203.0.113.9";
const D = "198.51.100.20";
const E = "198.51.100.21";
const F = "198.51.100.22";

/** The summary as the events say it should be: counted here, from every event `GET events` lists. */
function recount(events: readonly SecurityEvent[], summary: EventSummary): Pick<EventSummary, "buckets" | "topFailingAddresses"> {
  const size = summary.bucket === "hour" ? HOUR_MS : DAY_MS;
  const from = Date.parse(summary.from);
  const inWindow = events.filter((event) => Date.parse(event.at) >= from && Date.parse(event.at) < Date.parse(summary.to));
  const buckets = summary.buckets.map((_, index) => {
    const start = from + index * size;
    const inBucket = inWindow.filter((event) => Date.parse(event.at) >= start && Date.parse(event.at) < start + size);
    return {
      start: new Date(start).toISOString(),
      signIns: inBucket.filter((event) => SIGN_INS.has(event.type)).length,
      failures: inBucket.filter((event) => FAILURES.has(event.type)).length,
    };
  });
  const byAddress = new Map<string, { address: string; failures: number; lastAt: string }>();
  for (const event of inWindow) {
    if (!FAILURES.has(event.type) || event.address === null) continue;
    const seen = byAddress.get(event.address) ?? { address: event.address, failures: 0, lastAt: event.at };
    byAddress.set(event.address, { ...seen, failures: seen.failures + 1, lastAt: seen.lastAt > event.at ? seen.lastAt : event.at });
  }
  const topFailingAddresses = [...byAddress.values()]
    .sort((x, y) => y.failures - x.failures || y.lastAt.localeCompare(x.lastAt) || x.address.localeCompare(y.address))
    .slice(0, 5);
  return { buckets, topFailingAddresses };
}

describe.each(BACKENDS)("GET events/summary on $name", (backend) => {
  const pair = useClockedPair(backend.create, { clientAddress: clientAddressFromHeader });
  const api = () => pair.first.api;
  const now = () => clockOf(pair.first.auth);
  let admin: SignedIn;
  let reader: SignedIn;
  /** The UTC day and the hours the events below happened in (ms). */
  let day = 0;
  let firstHour = 0;
  let laterHour = 0;
  let unknown = 0;

  /** Moves the shared clock forward to `at` (ms). */
  const moveTo = (at: number) => pair.advance((at - now()) / 1000);
  /** Moves the clock one second on: events of a test each get their own time. */
  const tick = () => pair.advance(1);

  /** A failed login from `address`, for an email nobody has (each its own: no email locks). */
  async function failFrom(address: string): Promise<void> {
    tick();
    const answer = await api().post(
      "/api/user/login",
      { email: `nobody-${++unknown}@example.com`, password: TEST_PASSWORD },
      { headers: { [ADDRESS_HEADER]: address } },
    );
    expect(answer.status, answer.text).toBe(401);
  }

  /** The summary the setup role reads, checked against the events themselves. */
  async function summary(query = ""): Promise<EventSummary> {
    await settled(pair.first.auth);
    admin = await signIn(api(), ADMIN);
    const answer = await api().get(`/api/user/events/summary${query}`, { token: admin.token });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const events = await readAllEvents(api(), admin.token);
    expect(answer.body).toMatchObject(recount(events, answer.body));
    return answer.body;
  }

  beforeAll(async () => {
    // 01:10 UTC of the next day: the events below fall in known hours of one day.
    day = now() - (now() % DAY_MS) + DAY_MS;
    firstHour = day + HOUR_MS;
    laterHour = day + 3 * HOUR_MS;
    moveTo(firstHour + 10 * 60_000);
    admin = await setUpAdmin(api());
    reader = await signUp(api(), { email: "reader@example.com" });
    for (const address of [A, A, A, B, B]) await failFrom(address);
    // A sign-in with a second factor: the password step starts no session, a wrong code is a failure, the right one a sign-in.
    const { secret } = await enrolTotp(api(), pair.first.auth, reader.token);
    pair.advance(31);
    const step = await api().post("/api/user/login", { email: reader.email, password: TEST_PASSWORD });
    expect(step.body.mfaRequired).toBe(true);
    const wrong = { mfaToken: step.body.mfaToken, code: wrongCode(pair.first.auth, secret) };
    expect((await api().post("/api/user/login/mfa", wrong, { headers: { [ADDRESS_HEADER]: C } })).status).toBe(401);
    const right = await api().post("/api/user/login/mfa", { mfaToken: step.body.mfaToken, code: currentCode(pair.first.auth, secret) });
    expect(right.status, right.text).toBe(200);
    moveTo(laterHour + 20 * 60_000);
    for (const address of [D, E, F]) await failFrom(address);
  });

  it("counts per hour over the last 24 hours: every bucket, oldest first, zeros filled, the last one holding now", async () => {
    const answer = await summary("?window=24h");
    const end = laterHour + HOUR_MS;
    expect(answer).toMatchObject({
      window: "24h",
      bucket: "hour",
      from: new Date(end - DAY_MS).toISOString(),
      to: new Date(end).toISOString(),
    });
    expect(answer.buckets.map((bucket) => Date.parse(bucket.start))).toEqual(
      Array.from({ length: 24 }, (_, index) => end - DAY_MS + index * HOUR_MS),
    );
    const last = Date.parse(answer.buckets[23]?.start ?? "");
    expect(now()).toBeGreaterThanOrEqual(last);
    expect(now()).toBeLessThan(last + HOUR_MS);
    const counts = new Map(answer.buckets.map((bucket) => [Date.parse(bucket.start), [bucket.signIns, bucket.failures]]));
    // Setup, the reader's sign-in, the reader's second step (once); then the admin signing in to read this.
    expect(counts.get(firstHour)).toEqual([3, 6]);
    expect(counts.get(laterHour)).toEqual([1, 3]);
    expect(answer.buckets.filter((bucket) => bucket.signIns + bucket.failures === 0)).toHaveLength(22);
  });

  it("counts a sign-in with a second factor once", async () => {
    const events = await readAllEvents(api(), admin.token, { userId: reader.id, type: "login.succeeded" });
    expect(events.map((event) => event.detail.method)).toEqual(["totp", "password"]);
  });

  it("lists the 5 addresses with the most failures, most first, then the latest first", async () => {
    const { topFailingAddresses } = await summary();
    expect(topFailingAddresses.map(({ address, failures }) => [address, failures])).toEqual([
      [A, 3],
      [B, 2],
      [F, 1],
      [E, 1],
      [D, 1],
    ]);
    expect(Date.parse(topFailingAddresses[2]?.lastAt ?? "")).toBeGreaterThan(Date.parse(topFailingAddresses[3]?.lastAt ?? ""));
  });

  it("takes 24h when no window is given", async () => {
    expect((await summary()).window).toBe("24h");
  });

  it("counts per UTC day over the last 7 days", async () => {
    const answer = await summary("?window=7d");
    expect(answer).toMatchObject({
      window: "7d",
      bucket: "day",
      from: new Date(day - 6 * DAY_MS).toISOString(),
      to: new Date(day + DAY_MS).toISOString(),
    });
    expect(answer.buckets.map((bucket) => bucket.start)).toEqual(
      Array.from({ length: 7 }, (_, index) => new Date(day + (index - 6) * DAY_MS).toISOString()),
    );
    expect(answer.buckets.slice(0, 6).every((bucket) => bucket.signIns === 0 && bucket.failures === 0)).toBe(true);
    // Setup, the reader's two sign-ins and the admin's, each time it read a summary: 4 summaries so far.
    expect(answer.buckets[6]).toMatchObject({ failures: 9 });
    expect(answer.buckets[6]?.signIns).toBeGreaterThanOrEqual(4);
  });

  it("leaves out what is older than the window", async () => {
    moveTo(day + 2 * DAY_MS + 5 * HOUR_MS);
    const hours = await summary();
    expect(hours.topFailingAddresses).toEqual([]);
    expect(hours.buckets.reduce((sum, bucket) => sum + bucket.failures, 0)).toBe(0);
    const days = await summary("?window=7d");
    expect(days.buckets.map((bucket) => bucket.failures)).toEqual([0, 0, 0, 0, 9, 0, 0]);
    expect(days.topFailingAddresses).toHaveLength(5);
    moveTo(day + 8 * DAY_MS);
    const later = await summary("?window=7d");
    expect(later.topFailingAddresses).toEqual([]);
    expect(later.buckets.reduce((sum, bucket) => sum + bucket.failures, 0)).toBe(0);
  });

  it("is the setup role's: 403 for anyone else (before the query is read), 401 without a token", async () => {
    const other = await signUp(api(), { email: "other@example.com" });
    for (const query of ["", "?window=7d", "?window=30d"]) {
      const answer = await api().get(`/api/user/events/summary${query}`, { token: other.token });
      expect(answer, answer.text).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    }
    const anonymous = await api().get("/api/user/events/summary");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("answers 400 INVALID_QUERY for a window it does not know", async () => {
    admin = await signIn(api(), ADMIN);
    for (const window of ["30d", "", "24H", "1h"]) {
      const answer = await api().get(`/api/user/events/summary?window=${window}`, { token: admin.token });
      expect(answer.status, window).toBe(400);
      expect(answer.body).toMatchObject({ code: "INVALID_QUERY", issues: [{ path: ["window"], message: "must be one of: 24h, 7d" }] });
    }
  });

  it("answers as the served OpenAPI document describes it", async () => {
    const document = (await api().get("/api/openapi.json")).body as OpenApiDocument;
    const conformance = new Conformance(document);
    const checked = conformance.over(api());
    admin = await signIn(api(), ADMIN);
    for (const query of ["", "?window=24h", "?window=7d", "?window=30d"]) {
      await checked.get(`/api/user/events/summary${query}`, { token: admin.token });
    }
    await checked.get("/api/user/events/summary", { token: (await signUp(api(), { email: "third@example.com" })).token });
    await checked.get("/api/user/events/summary");
    expect(conformance.disagreements).toEqual([]);
    expect(document.paths["/api/user/events/summary"]?.get).toMatchObject({ operationId: "summarizeEvents" });
  });

  it("is its own path: not a record of the auth entity, no other method, nothing under it", async () => {
    expect((await api().post("/api/user/events/summary", {}, { token: admin.token })).status).toBe(405);
    expect((await api().get("/api/user/events/summary/more", { token: admin.token })).status).toBe(404);
    expect((await api().get("/api/user/events", { token: admin.token })).body.items).toBeInstanceOf(Array);
  });
});

describe.each(BACKENDS)("the activity summary among 20,000 events on $name", (backend) => {
  let testDatabase: TestDatabase;
  let database: Database;
  /** When the filled events start (`fillEvents`): 2026-01-01, 10 ms apart, the four types in turn. */
  const START = Date.UTC(2026, 0, 1);

  beforeAll(async () => {
    testDatabase = await backend.create();
    ({ database } = await eventVolume(testDatabase, 20_000));
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  it("counts them in the database", async () => {
    const answer = await summarizeEvents(database.db, "24h", START + 30 * 60_000);
    expect(answer.buckets.at(-1)).toEqual({ start: new Date(START).toISOString(), signIns: 5000, failures: 5000 });
    expect(answer.buckets.slice(0, 23).every((bucket) => bucket.signIns === 0 && bucket.failures === 0)).toBe(true);
    expect(answer.topFailingAddresses).toEqual([
      { address: "192.0.2.1", failures: 5000, lastAt: new Date(START + (20_000 - 3) * 10).toISOString() },
    ]);
  });

  it("reads a window of a long history by an index's range, never the whole table", async () => {
    const range = summaryRange("7d", START + 30 * DAY_MS);
    for (const query of [bucketCountsQuery(database.db, range), topFailingAddressesQuery(database.db, range)]) {
      const plan = await planOf(database, query.compile());
      expect(
        Object.values(EVENT_INDEXES).some((index) => new RegExp(`\\b${index}\\b`).test(plan)),
        plan,
      ).toBe(true);
      expect(plan, plan).not.toMatch(/Seq Scan|SCAN domain_auth_events(?! USING)/i);
    }
  });
});
