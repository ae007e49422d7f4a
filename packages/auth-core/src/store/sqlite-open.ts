import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type SQLite from "better-sqlite3";
import { importOptionalPeer } from "../optional-peer.js";

function isBusy(error: unknown): boolean {
  return String((error as { code?: unknown })?.code ?? "").startsWith("SQLITE_BUSY");
}

/**
 * Runs `step` until it does not meet a busy database, for at most `timeoutMs`. SQLite answers some
 * lock requests with SQLITE_BUSY at once instead of calling the busy handler (switching the journal
 * mode of a file another process is opening is one), so these wait here like every other write.
 */
async function untilNotBusy<T>(step: () => T, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error) || Date.now() + delay > deadline) throw error;
      await sleep(delay + Math.random() * delay);
    }
  }
}

/**
 * Creates a missing database file readable by its owner only (0600, in a 0700 folder): it holds
 * password hashes. SQLite gives its `-wal` and `-shm` files the mode of the database file.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, "", { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/**
 * Opens a SQLite file for the store: WAL, durable commits (an acknowledged write survives a power
 * cut, not only a crash of the process), foreign keys, and `busyTimeoutMs` for every lock, the
 * opening included, so several processes may open and migrate one new file at once. A new file is
 * created readable by its owner only.
 */
export async function openSqliteFile(path: string, busyTimeoutMs: number): Promise<SQLite.Database> {
  const { default: Driver } = await importOptionalPeer("better-sqlite3", () => import("better-sqlite3"));
  if (path !== ":memory:") createPrivately(path);
  const client = new Driver(path, { timeout: busyTimeoutMs });
  try {
    if (client.pragma("journal_mode", { simple: true }) !== "wal") {
      await untilNotBusy(() => client.pragma("journal_mode = WAL"), busyTimeoutMs);
    }
    client.pragma("synchronous = FULL");
    client.pragma("foreign_keys = ON");
    return client;
  } catch (error) {
    client.close();
    throw error;
  }
}
