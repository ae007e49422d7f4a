import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import { afterAll, expect, test } from "vitest";

/**
 * Processes that open and migrate one SQLite file in the same millisecond (a process manager in
 * cluster mode, a rolling restart) all start: switching the file to WAL and migrating wait for the
 * other process within the busy timeout instead of failing with "database is locked".
 */

const OPEN_TOGETHER = fileURLToPath(new URL("./support/open-together.mjs", import.meta.url));
const DOMAIN = fileURLToPath(new URL("../../apps/web/domain.yaml", import.meta.url));
const ROUNDS = 20;
const dir = mkdtempSync(join(tmpdir(), "domain-auth-start-"));
/** Release signals written so far: each group of processes waits for a file of its own. */
let releases = 0;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One process of {@link openTogether}: resolves `ready` once it has loaded, `result` with what it printed after. */
function opener(file: string, go: string): { ready: Promise<void>; result: Promise<string> } {
  const child = spawn(process.execPath, [OPEN_TOGETHER, file, DOMAIN, go], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let loaded: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    loaded = resolve;
  });
  child.stdout.on("data", (chunk) => {
    output += chunk;
    if (output.startsWith("ready\n")) loaded();
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const result = new Promise<string>((resolve) => {
    child.once("close", (code) => {
      loaded(); // a process that failed before loading releases the others too
      const printed = output.replace(/^ready\n/, "").trim();
      resolve(code === 0 || printed ? printed : `exited with ${code}`);
    });
  });
  return { ready, result };
}

/**
 * Starts `count` processes on `file`, and once every one of them has loaded the package and the domain
 * (however long that takes on the machine), releases them at once; resolves to what each printed.
 */
async function openTogether(file: string, count: number): Promise<string[]> {
  const go = join(dir, `go-${++releases}`);
  const openers = Array.from({ length: count }, () => opener(file, go));
  await Promise.all(openers.map(({ ready }) => ready));
  writeFileSync(go, "");
  return Promise.all(openers.map(({ result }) => result));
}

test(`${ROUNDS} rounds of two processes opening and migrating one new file at the same instant all start`, async () => {
  const failures: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const file = join(dir, `round-${round}.db`);
    const answers = await openTogether(file, 2);
    failures.push(...answers.filter((answer) => answer !== "ok").map((answer) => `round ${round}: ${answer}`));
    const opened = new SQLite(file, { readonly: true });
    expect(opened.pragma("journal_mode", { simple: true })).toBe("wal");
    opened.close();
  }
  expect(failures).toEqual([]);
}, 120_000);

test("a process opening a file another one is migrating waits for it", async () => {
  const file = join(dir, "existing.db");
  expect(await openTogether(file, 1)).toEqual(["ok"]);
  expect(await openTogether(file, 3)).toEqual(["ok", "ok", "ok"]);
});
