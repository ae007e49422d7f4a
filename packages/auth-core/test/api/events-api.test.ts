import { type SignedIn, setUpAdmin, signIn, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/admin.js";
import type { SecurityEvent } from "../../src/browser.js";
import { encodeCursor } from "../../src/events/cursor.js";
import { readSettings } from "../../src/index.js";
import { useClockedPair } from "../support/clocked.js";
import { eventually, readAllEvents, settled } from "../support/events.js";
import { startInstance, type TestInstance, useInstance } from "../support/instance.js";

/**
 * `GET /api/<auth>/events` (docs/events.md) on both databases: who reads whose events, the filters,
 * keyset pages that stay put while events arrive, the retention purge, and `onEvent`.
 */

const DAY_SECONDS = 24 * 3600;

describe.each(BACKENDS)("GET events on $name", (backend) => {
  const pair = useClockedPair(backend.create);
  const api = () => pair.first.api;
  let admin: SignedIn;
  let reader: SignedIn;
  let other: SignedIn;

  beforeAll(async () => {
    admin = await setUpAdmin(api());
    reader = await signUp(api(), { email: "reader@example.com" });
    other = await signUp(api(), { email: "other@example.com" });
  });

  it("needs a token: 401 without one", async () => {
    const answer = await api().get("/api/user/events");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("gives the setup role everyone's events, or one user's", async () => {
    const all = await readAllEvents(api(), admin.token);
    expect(new Set(all.map((event) => event.userId))).toEqual(new Set([admin.id, reader.id, other.id]));
    const readers = await readAllEvents(api(), admin.token, { userId: reader.id });
    expect(readers.length).toBeGreaterThan(0);
    expect(readers.every((event) => event.userId === reader.id)).toBe(true);
  });

  it("gives anyone else only their own, and 403 for another user's", async () => {
    const own = await readAllEvents(api(), reader.token);
    expect(own.map((event) => event.type).sort()).toEqual(["login.succeeded", "register"]);
    expect(own.every((event) => event.userId === reader.id)).toBe(true);
    expect(await readAllEvents(api(), reader.token, { userId: reader.id })).toEqual(own);
    const refused = await api().get(`/api/user/events?userId=${admin.id}`, { token: reader.token });
    expect(refused).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    // Who may read is decided before the rest of the query is looked at.
    expect((await api().get(`/api/user/events?userId=${admin.id}&limit=0`, { token: reader.token })).status).toBe(403);
  });

  it("filters by type, for one user or everyone", async () => {
    const signIns = await readAllEvents(api(), admin.token, { type: "login.succeeded" });
    expect(signIns.length).toBe(3);
    expect(signIns.every((event) => event.type === "login.succeeded")).toBe(true);
    const theirs = await readAllEvents(api(), admin.token, { type: "register", userId: other.id });
    expect(theirs.map((event) => [event.type, event.userId])).toEqual([["register", other.id]]);
  });

  it("answers 400 INVALID_QUERY for a type, a cursor or a limit it cannot use", async () => {
    const bad = async (query: string, path: string) => {
      const answer = await api().get(`/api/user/events?${query}`, { token: admin.token });
      expect(answer.status, query).toBe(400);
      expect(answer.body.code).toBe("INVALID_QUERY");
      expect(answer.body.issues.map((issue: { path: string[] }) => issue.path[0])).toContain(path);
    };
    await bad("type=login", "type");
    for (const limit of ["0", "101", "-1", "1.5", "ten", ""]) await bad(`limit=${limit}`, "limit");
    const forged = Buffer.from(JSON.stringify(["yesterday", "x"])).toString("base64url");
    const tooLong = Buffer.from(JSON.stringify([1, "a".repeat(65)])).toString("base64url");
    for (const before of ["not a cursor", "!!!", forged, tooLong, "", Buffer.from("[1]").toString("base64url")]) {
      await bad(`before=${encodeURIComponent(before)}`, "before");
    }
  });

  it("pages newest first by a cursor that stays put while events arrive, ties in time included", async () => {
    // The clock stands still: every one of these events has the same time, and only ids order them.
    for (let index = 0; index < 12; index++) await signIn(api(), { email: reader.email });
    const everything = await readAllEvents(api(), reader.token);
    const first = await api().get("/api/user/events?limit=5", { token: reader.token });
    expect(first.body.items).toEqual(everything.slice(0, 5));
    expect(first.body.nextCursor).toEqual(expect.any(String));
    for (let index = 0; index < 3; index++) await signIn(api(), { email: reader.email });
    const seen: SecurityEvent[] = [...first.body.items];
    let before: string | null = first.body.nextCursor;
    while (before) {
      const page = await api().get(`/api/user/events?limit=5&before=${before}`, { token: reader.token });
      seen.push(...page.body.items);
      before = page.body.nextCursor;
    }
    expect(seen).toEqual(everything);
    const stamps = everything.map((event) => `${event.at} ${event.id}`);
    expect([...stamps].sort().reverse()).toEqual(stamps);
  });

  it("answers nextCursor null on the last page, and an empty page past the last event", async () => {
    const all = await readAllEvents(api(), other.token);
    const whole = await api().get("/api/user/events?limit=100", { token: other.token });
    expect(whole.body).toEqual({ items: all, nextCursor: null });
    const oldest = all.at(-1) as SecurityEvent;
    const past = encodeCursor({ at: Date.parse(oldest.at), id: oldest.id });
    expect((await api().get(`/api/user/events?before=${past}`, { token: other.token })).body).toEqual({ items: [], nextCursor: null });
  });

  it("writes nothing for me or a refresh", async () => {
    const before = (await readAllEvents(api(), admin.token)).length;
    const session = await signIn(api(), { email: other.email });
    expect((await api().get("/api/user/me", { token: session.token })).status).toBe(200);
    expect((await api().post("/api/user/refresh", { refreshToken: session.refreshToken })).status).toBe(200);
    await settled(pair.first.auth);
    expect((await readAllEvents(api(), admin.token)).length).toBe(before + 1);
  });

  it("purges events older than the retention, after an answer, in bounded batches", async () => {
    const old = await readAllEvents(api(), admin.token);
    pair.advance(91 * DAY_SECONDS);
    const fresh = await signIn(api(), { email: admin.email });
    await settled(pair.first.auth);
    const left = await readAllEvents(api(), fresh.token);
    expect(left.map((event) => event.type)).toEqual(["login.succeeded"]);
    expect(old.some((event) => left.some((kept) => kept.id === event.id))).toBe(false);
  });
});

describe("AUTH_EVENT_RETENTION", () => {
  it("is 90 days unless set, a whole number of days of at least 1", () => {
    expect(readSettings({}).eventRetentionDays).toBe(90);
    expect(readSettings({ AUTH_EVENT_RETENTION: "7" }).eventRetentionDays).toBe(7);
    for (const value of ["0", "-1", "1.5", "a week"])
      expect(() => readSettings({ AUTH_EVENT_RETENTION: value })).toThrow(/AUTH_EVENT_RETENTION/);
  });
});

describe.each(BACKENDS)("onEvent on $name", (backend) => {
  let database: TestDatabase;
  let reader: Database;
  let instance: TestInstance;
  const committed: boolean[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    database = await backend.create();
    reader = await openDatabase(database.url);
    instance = await startInstance(domainOf(BLOG_YAML), database.url, {
      // Looks for the event through a connection of its own, which sees only what is committed.
      onEvent: async (event) => {
        const row = await reader.db.selectFrom("domain_auth_events").select("id").where("id", "=", event.id).executeTakeFirst();
        committed.push(row !== undefined);
        await held;
      },
    });
    return async () => {
      release();
      await instance.auth.close();
      await reader.close();
      await database.drop();
    };
  });

  it("hears of each event after its commit, and never holds up the answer", async () => {
    // Each call of onEvent waits for `held`, which only the test releases: the answers come all the same.
    const admin = await setUpAdmin(instance.api);
    expect((await instance.api.get("/api/user/me", { token: admin.token })).status).toBe(200);
    await eventually(() => committed.length === 2);
    expect(committed).toEqual([true, true]);
    release();
    await settled(instance.auth);
  });
});

describe.each(BACKENDS)("a throwing onEvent on $name", (backend) => {
  const errors: unknown[] = [];
  let calls = 0;
  const instance = useInstance(backend.create, BLOG_YAML, {
    onEvent: (event) => {
      calls++;
      if (event.type === "setup") throw new Error("the log pipeline is down");
      return Promise.reject(new Error("the log pipeline is still down"));
    },
    onError: (error) => errors.push(error),
  });

  it("is logged through onError, and the answers and the events stay as they are", async () => {
    const admin = await setUpAdmin(instance.api);
    const wrong = await instance.api.post("/api/user/login", { email: admin.email, password: "not the password" });
    expect(wrong.status).toBe(401);
    await settled(instance.auth);
    expect(calls).toBe(3);
    expect(errors.map((error) => (error as Error).message)).toEqual([
      expect.stringMatching(/^domain-auth: onEvent failed for the setup event /),
      expect.stringMatching(/^domain-auth: onEvent failed for the login.succeeded event /),
      expect.stringMatching(/^domain-auth: onEvent failed for the login.failed event /),
    ]);
    expect(((errors[0] as Error).cause as Error).message).toBe("the log pipeline is down");
    expect((await readAllEvents(instance.api, admin.token)).map((event) => event.type)).toEqual([
      "login.failed",
      "login.succeeded",
      "setup",
    ]);
  });
});
