import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN, setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { createPostgresDatabase } from "@domain-auth/test-support/databases";
import { call } from "@domain-auth/test-support/http-client";
import SQLite from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { printFigures } from "./support/figures.js";
import { pool } from "./support/http.js";

/**
 * A register storm against the production server, `kill -9` in the middle of it, a restart on the same
 * database: every registration that was answered 201 is there and can sign in, none is there twice, the
 * SQLite file passes `PRAGMA integrity_check`, and setup stays complete. The storm comes from one address,
 * so the per-address register limit is raised out of the way; what the hash queue sheds (503 with
 * Retry-After) is sent again after the wait, as a client would, so the storm keeps the server busy.
 */

const STORM = Number(process.env.HARDENING_STORM ?? 400);
/** Registrations in flight at once: the crash cuts about this many. */
const CONCURRENCY = 200;
/**
 * The crash comes once an eighth of the storm (50 of 400) was acknowledged, however long that takes:
 * mid-storm by count, not by a clock that a slow machine could reach before the first acknowledgement.
 */
const KILL_AFTER_ACKS = Math.max(1, Math.floor(STORM / 8));
const PASSWORD = "storm password 1";
/** The storm is one client: the per-address register limit would stop it after 100. */
const ENV = { AUTH_REGISTER_LIMIT: "1000000" };

interface StormResult {
  /** Emails answered 201. */
  readonly acknowledged: string[];
  /** Requests cut by the crash: their outcome is unknown to the client. */
  readonly cut: number;
  /** Requests never sent, or not sent again after a 503: the server was gone. */
  readonly unsent: number;
  /** Answers 503 UNAVAILABLE from the full hash queue, each sent again after its Retry-After unless the server was gone. */
  readonly shed: number;
  /** Requests refused in any other way (must be none). */
  readonly refused: string[];
}

/** Registers `STORM` accounts with `CONCURRENCY` in flight and kills the server with SIGKILL mid-storm. */
async function stormAndKill(app: RunningApp, prefix: string): Promise<StormResult> {
  const acknowledged: string[] = [];
  const refused: string[] = [];
  let cut = 0;
  let unsent = 0;
  let shed = 0;
  let killed = false;
  const kill = async () => {
    if (killed) return;
    killed = true;
    await app.kill("SIGKILL");
  };
  const emails = Array.from({ length: STORM }, (_, index) => `${prefix}-${index}@example.com`);
  await pool(
    CONCURRENCY,
    emails.map((email) => async () => {
      if (killed) {
        unsent++;
        return;
      }
      try {
        let answer = await call(app.url, { path: "/api/user/register", body: { email, password: PASSWORD } });
        while (answer.status === 503 && answer.headers.has("retry-after")) {
          shed++;
          if (!killed) await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get("retry-after")) * 1000));
          if (killed) {
            unsent++;
            return;
          }
          answer = await call(app.url, { path: "/api/user/register", body: { email, password: PASSWORD } });
        }
        if (answer.status === 201) acknowledged.push(email);
        else refused.push(`${email}: ${answer.status} ${answer.text.slice(0, 120)}`);
      } catch {
        cut++; // the connection died with the server
      }
      if (acknowledged.length >= KILL_AFTER_ACKS) await kill();
    }),
  );
  await kill();
  return { acknowledged, cut, unsent, shed, refused };
}

/** Every acknowledged account signs in on the restarted server (a few at a time: bcrypt is slow on purpose). */
async function expectAllSignIn(app: RunningApp, emails: readonly string[]): Promise<number> {
  const statuses = await pool(
    4,
    emails.map((email) => async () => (await call(app.url, { path: "/api/user/login", body: { email, password: PASSWORD } })).status),
  );
  const failed = emails.filter((_, index) => statuses[index] !== 200);
  expect(failed, "acknowledged accounts that cannot sign in").toEqual([]);
  return emails.length - failed.length;
}

async function expectSetupComplete(app: RunningApp): Promise<void> {
  expect((await call(app.url, { path: "/api/user/setup" })).body).toEqual({ setupRequired: false });
  const again = await call(app.url, { path: "/api/user/setup", body: { email: "late@example.com", password: "late password 1" } });
  expect(again.status).toBe(409);
  expect((await call(app.url, { path: "/api/user/login", body: ADMIN })).status).toBe(200);
}

function summarize(backend: string, result: StormResult, stored: number, lost: number, duplicates: number): void {
  printFigures(`crash-safety.test.ts (${backend})`, {
    "registrations sent": STORM,
    "acknowledged (201) before kill -9": result.acknowledged.length,
    "shed with 503 (sent again unless the server was gone)": result.shed,
    "cut by the crash": result.cut,
    "never sent (or not again after a 503)": result.unsent,
    "users stored after restart": stored,
    "acknowledged users lost": lost,
    "users stored twice": duplicates,
  });
}

describe("kill -9 in a register storm", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  test("SQLite: nothing acknowledged is lost, nothing is doubled, the file is intact", async () => {
    const dir = mkdtempSync(join(tmpdir(), "domain-auth-crash-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = await startApp({ dir, env: ENV });
    cleanups.push(() => first.stop());
    await setUpAdmin(first.url);
    const result = await stormAndKill(first, "sqlite");
    expect(result.refused).toEqual([]);
    expect(result.acknowledged.length).toBeGreaterThan(0);

    // The file as the crash left it (the WAL is replayed on open).
    const file = new SQLite(join(dir, "app.db"));
    let stored: string[];
    let duplicates: number;
    try {
      expect(file.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(file.pragma("foreign_key_check")).toEqual([]);
      stored = file
        .prepare<[], { email: string }>('select email from "user"')
        .all()
        .map((row) => row.email);
      duplicates =
        file.prepare<[], { n: number }>('select count(*) as n from (select email from "user" group by email having count(*) > 1)').get()
          ?.n ?? -1;
      expect(file.prepare('select count(*) as n from "domain_auth_setup"').get()).toEqual({ n: 1 });
    } finally {
      file.close();
    }
    const lost = result.acknowledged.filter((email) => !stored.includes(email));
    expect(lost).toEqual([]);
    expect(duplicates).toBe(0);
    expect(new Set(stored).size).toBe(stored.length);

    const second = await startApp({ dir, env: ENV });
    cleanups.push(() => second.stop());
    await expectSetupComplete(second);
    await expectAllSignIn(second, result.acknowledged);
    await second.stop();

    const after = new SQLite(join(dir, "app.db"), { readonly: true });
    try {
      expect(after.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      after.close();
    }
    summarize("SQLite", result, stored.length, lost.length, duplicates);
  });

  test("PostgreSQL: nothing acknowledged is lost, nothing is doubled", async () => {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const env = { ...ENV, DATABASE_URL: database.url };
    const first = await startApp({ env });
    cleanups.push(() => first.stop());
    await setUpAdmin(first.url);
    const result = await stormAndKill(first, "postgres");
    expect(result.refused).toEqual([]);
    expect(result.acknowledged.length).toBeGreaterThan(0);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    let stored: string[];
    let duplicates: number;
    try {
      stored = (await client.query<{ email: string }>('select email from "user"')).rows.map((row) => row.email);
      duplicates = (await client.query('select email from "user" group by email having count(*) > 1')).rowCount ?? -1;
      expect((await client.query('select * from "domain_auth_setup"')).rowCount).toBe(1);
    } finally {
      await client.end();
    }
    const lost = result.acknowledged.filter((email) => !stored.includes(email));
    expect(lost).toEqual([]);
    expect(duplicates).toBe(0);

    const second = await startApp({ env });
    cleanups.push(() => second.stop());
    await expectSetupComplete(second);
    await expectAllSignIn(second, result.acknowledged);
    summarize("PostgreSQL", result, stored.length, lost.length, duplicates);
  });
});
