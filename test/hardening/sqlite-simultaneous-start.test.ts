import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { afterAll, expect, test } from "vitest";

/**
 * Processes that open and migrate one SQLite file in the same millisecond (a process manager in
 * cluster mode, a rolling restart) all start: switching the file to WAL and migrating wait for the
 * other process within the busy timeout instead of failing with "database is locked".
 */

const OPEN_AT = fileURLToPath(new URL("./support/open-at.mjs", import.meta.url));
const DOMAIN = fileURLToPath(new URL("../../apps/web/domain.yaml", import.meta.url));
const ROUNDS = 20;
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "domain-auth-start-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function openAt(file: string, at: number): Promise<string> {
  try {
    return (await run(process.execPath, [OPEN_AT, file, DOMAIN, String(at)])).stdout.trim();
  } catch (error) {
    return (error as { stdout?: string }).stdout?.trim() || String(error);
  }
}

test(`${ROUNDS} rounds of two processes opening and migrating one new file at the same instant all start`, async () => {
  const failures: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const file = join(dir, `round-${round}.db`);
    // Far enough ahead that both processes have loaded the package and the domain when it comes.
    const at = Date.now() + 800;
    const answers = await Promise.all([openAt(file, at), openAt(file, at)]);
    failures.push(...answers.filter((answer) => answer !== "ok").map((answer) => `round ${round}: ${answer}`));
    const opened = new SQLite(file, { readonly: true });
    expect(opened.pragma("journal_mode", { simple: true })).toBe("wal");
    opened.close();
  }
  expect(failures).toEqual([]);
}, 120_000);

test("a process opening a file another one is migrating waits for it", async () => {
  const file = join(dir, "existing.db");
  expect(await openAt(file, Date.now())).toBe("ok");
  const at = Date.now() + 800;
  expect(await Promise.all([openAt(file, at), openAt(file, at), openAt(file, at)])).toEqual(["ok", "ok", "ok"]);
});
