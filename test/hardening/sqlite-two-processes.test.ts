import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN, type SignedIn, signIn, userOf } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { call } from "@domain-auth/test-support/http-client";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { printFigures } from "./support/figures.js";
import { safetyProblems } from "./support/http.js";
import { losingCodes, race, tally } from "./support/races.js";

/**
 * Two production servers on one SQLite file: the races are won exactly once, and a file that stays
 * locked past the busy timeout (5 s) is 503 UNAVAILABLE with the error body, never a 500 and never a
 * half-written record; the service recovers once the lock is gone.
 */

const RACERS = 24;
const BUSY_TIMEOUT_MS = 5_000;
const figures = { racesRun: 0, racesWonOnce: 0, unavailable: 0, fiveHundreds: 0 };

let dir: string;
let first: RunningApp;
let second: RunningApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "domain-auth-two-"));
  // Both open and migrate the new file at once.
  const env = { AUTH_SECRET: randomBytes(32).toString("base64url") };
  [first, second] = await Promise.all([startApp({ dir, env }), startApp({ dir, env })]);
});

afterAll(async () => {
  printFigures("sqlite-two-processes.test.ts (2 processes, 1 SQLite file)", {
    "races run": figures.racesRun,
    "races won exactly once": figures.racesWonOnce,
    "503 UNAVAILABLE while locked": figures.unavailable,
    "500 seen": figures.fiveHundreds,
  });
  await Promise.all([first?.stop(), second?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function countUsers(): number {
  const file = new SQLite(join(dir, "app.db"), { readonly: true });
  try {
    return (file.prepare('select count(*) as n from "user"').get() as { n: number }).n;
  } finally {
    file.close();
  }
}

describe("two processes on one SQLite file", () => {
  let admin: SignedIn;

  test("setup race: exactly one 201", async () => {
    const answers = await race(
      [first, second],
      RACERS,
      (index) => ({ email: `admin${index}@example.com`, password: ADMIN.password }),
      "/api/user/setup",
    );
    figures.racesRun++;
    expect(tally(answers)).toEqual({ 201: 1, 409: RACERS - 1 });
    expect(losingCodes(answers)).toEqual(["SETUP_COMPLETE"]);
    expect(countUsers()).toBe(1);
    figures.racesWonOnce++;
    const winner = userOf(answers.find((answer) => answer.status === 201)?.body);
    admin = await signIn(first.url, { email: winner.email, password: ADMIN.password });
  });

  test("duplicate-email race: exactly one 201", async () => {
    const spellings = ["twin@example.com", "TWIN@EXAMPLE.COM", "  twin@example.com", "ｔｗｉｎ@example.com"];
    const answers = await race(
      [first, second],
      RACERS,
      (index) => ({ email: spellings[index % spellings.length], password: "twin password 1" }),
      "/api/user/register",
    );
    figures.racesRun++;
    expect(tally(answers)).toEqual({ 201: 1, 409: RACERS - 1 });
    expect(losingCodes(answers)).toEqual(["EMAIL_TAKEN"]);
    expect(countUsers()).toBe(2);
    figures.racesWonOnce++;
  });

  test("a write lock held past the busy timeout is 503 UNAVAILABLE, never 500, and nothing is half-written", async () => {
    const locker = new SQLite(join(dir, "app.db"));
    const locked = { email: "locked@example.com", password: "locked password 1" };
    let answers: Awaited<ReturnType<typeof call>>[];
    const slowest = { ms: 0 };
    // Given time past two busy timeouts, so that a slow answer fails the assertion below, not the client.
    const timed = async (url: string, request: Parameters<typeof call>[1]) => {
      const start = Date.now();
      const answer = await call(url, { ...request, timeoutMs: 3 * BUSY_TIMEOUT_MS });
      slowest.ms = Math.max(slowest.ms, Date.now() - start);
      return answer;
    };
    const started = Date.now();
    try {
      locker.exec("BEGIN IMMEDIATE");
      locker.prepare('update "domain_auth_setup" set "completedAt" = "completedAt"').run();
      // A write waits for the lock synchronously (better-sqlite3), holding up its process: one per process at a time.
      answers = await Promise.all([
        timed(first.url, { path: "/api/user/register", body: locked }),
        timed(second.url, { path: "/api/user/login", body: { email: admin.email, password: "wrong password" } }),
      ]);
      const [patched, read] = await Promise.all([
        timed(first.url, { method: "PATCH", path: `/api/user/${admin.id}`, body: { name: "Locked out" }, token: admin.token }),
        // Reads do not wait for the writer (WAL).
        call(second.url, { path: "/api/user/setup" }),
      ]);
      answers.push(patched);
      expect(read.status).toBe(200);
    } finally {
      locker.exec("ROLLBACK");
      locker.close();
    }
    const waited = Date.now() - started;
    for (const answer of answers) {
      if (answer.status === 500) figures.fiveHundreds++;
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body).toEqual({ code: "UNAVAILABLE", message: expect.any(String) });
      expect(safetyProblems(answer, { allowUnavailable: true })).toEqual([]);
      figures.unavailable++;
    }
    expect(waited).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS - 100);
    // Each refusal comes after one busy timeout, not two: whatever the machine's speed, the hashing and
    // the request around the wait stay far below a second busy timeout.
    expect(slowest.ms).toBeLessThan(2 * BUSY_TIMEOUT_MS);

    // Recovered: the refused writes left nothing behind and succeed now.
    expect(countUsers()).toBe(2);
    expect((await call(first.url, { path: "/api/user/register", body: locked })).status).toBe(201);
    const renamed = await call(second.url, { method: "PATCH", path: `/api/user/${admin.id}`, body: { name: "Back" }, token: admin.token });
    expect(renamed.status).toBe(200);
    expect((await signIn(second.url, locked)).email).toBe(locked.email);
  });
});
