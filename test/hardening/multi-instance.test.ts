import { randomBytes } from "node:crypto";
import { ADMIN, type SignedIn, signIn, userOf } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { createPostgresDatabase } from "@domain-auth/test-support/databases";
import { call } from "@domain-auth/test-support/http-client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { printFigures } from "./support/figures.js";
import { pool } from "./support/http.js";
import { losingCodes, race, tally } from "./support/races.js";

/**
 * Two production servers on one PostgreSQL database, no balancer: the test alternates between them.
 * (e2e/scale-out.test.ts already shows setup and sign-in crossing instances and the per-email lock
 * holding across both; here: the races, the per-address lock and token invalidation.)
 */

const RACERS = 24;
const figures = { racesRun: 0, racesWonOnce: 0 };

let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
let first: RunningApp;
let second: RunningApp;

beforeAll(async () => {
  database = await createPostgresDatabase();
  // Both start at once on the empty database: their migrations race too.
  const env = { DATABASE_URL: database.url, AUTH_SECRET: randomBytes(32).toString("base64url") };
  [first, second] = await Promise.all([startApp({ env }), startApp({ env })]);
});

afterAll(async () => {
  printFigures("multi-instance.test.ts (2 instances, PostgreSQL)", {
    "races run": figures.racesRun,
    "races won exactly once": figures.racesWonOnce,
  });
  await Promise.all([first?.stop(), second?.stop()]);
  await database?.drop();
});

async function countUsers(): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('select count(*) as n from "user"')).rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe("two instances on one PostgreSQL database", () => {
  let admin: SignedIn;

  test("setup race: of simultaneous setups on both instances exactly one is 201", async () => {
    const answers = await race(
      [first, second],
      RACERS,
      (index) => (index === 0 ? ADMIN : { email: `admin${index}@example.com`, password: ADMIN.password }),
      "/api/user/setup",
    );
    figures.racesRun++;
    expect(tally(answers)).toEqual({ 201: 1, 409: RACERS - 1 });
    expect(losingCodes(answers)).toEqual(["SETUP_COMPLETE"]);
    expect(await countUsers()).toBe(1);
    figures.racesWonOnce++;
    const winner = userOf(answers.find((answer) => answer.status === 201)?.body);
    admin = await signIn(second.url, { email: winner.email, password: ADMIN.password });
    expect(admin.id).toBe(winner.id);
    for (const app of [first, second]) expect((await call(app.url, { path: "/api/user/setup" })).body).toEqual({ setupRequired: false });
  });

  test("duplicate-email race: of simultaneous registrations of one email (spelled differently) exactly one is 201", async () => {
    const spellings = ["race@example.com", "RACE@example.com", " race@example.com ", "Race@Example.Com", "ｒａｃｅ@example.com"];
    const answers = await race(
      [first, second],
      RACERS,
      (index) => ({ email: spellings[index % spellings.length], password: `race password ${index}` }),
      "/api/user/register",
    );
    figures.racesRun++;
    expect(tally(answers)).toEqual({ 201: 1, 409: RACERS - 1 });
    expect(losingCodes(answers)).toEqual(["EMAIL_TAKEN"]);
    expect(await countUsers()).toBe(2);
    figures.racesWonOnce++;
  });

  test("a role change on one instance invalidates the old token on the other, even after A → B → A", async () => {
    const account = { email: "member@example.com", password: "member password 1" };
    expect((await call(first.url, { path: "/api/user/register", body: account })).status).toBe(201);
    const member = await signIn(second.url, account);
    expect((await call(first.url, { path: "/api/user/me", token: member.token })).status).toBe(200);

    const setRole = (app: RunningApp, role: string) =>
      call(app.url, { method: "PATCH", path: `/api/user/${member.id}`, body: { role }, token: admin.token });
    expect((await setRole(first, "Editor")).status).toBe(200);
    for (const app of [second, first]) {
      const answer = await call(app.url, { path: "/api/user/me", token: member.token });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    }
    const asEditor = await signIn(second.url, account);
    expect((await call(first.url, { path: "/api/post", body: { title: "By an editor" }, token: asEditor.token })).status).toBe(201);

    // Back to the old role on the other instance: neither older token comes back to life.
    expect((await setRole(second, "Reader")).status).toBe(200);
    for (const token of [member.token, asEditor.token]) {
      expect((await call(first.url, { path: "/api/user/me", token })).status).toBe(401);
      expect((await call(second.url, { path: "/api/post", body: { title: "Stale" }, token })).status).toBe(401);
    }
    // A password change on one instance does the same to the other's tokens.
    const fresh = await signIn(first.url, account);
    const changed = await call(second.url, {
      method: "PATCH",
      path: `/api/user/${member.id}`,
      body: { password: "member password 2", currentPassword: account.password },
      token: fresh.token,
    });
    expect(changed.status).toBe(200);
    expect((await call(first.url, { path: "/api/user/me", token: fresh.token })).status).toBe(401);
  });

  test("the per-address lock holds across both instances: 100 failures over many emails lock the address on both", async () => {
    // Each failure a different email, so no per-email lock interferes; alternating instances.
    const failures = await pool(
      8,
      Array.from(
        { length: 100 },
        (_, index) => async () =>
          (
            await call((index % 2 ? second : first).url, {
              path: "/api/user/login",
              body: { email: `nobody${index}@example.com`, password: "wrong password" },
            })
          ).status,
      ),
    );
    expect(failures.filter((status) => status === 401)).toHaveLength(100);
    for (const app of [first, second]) {
      const locked = await call(app.url, { path: "/api/user/login", body: ADMIN });
      expect(locked.status).toBe(429);
      expect((locked.body as { code: string }).code).toBe("TOO_MANY_ATTEMPTS");
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // A token issued before keeps working: the lock is on signing in, not on the account.
    expect((await call(first.url, { path: "/api/user/me", token: admin.token })).status).toBe(200);
  });
});
