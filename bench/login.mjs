#!/usr/bin/env node
// The login rows of `npm run bench` alone, in about a minute: the limits of each bcrypt library, then
// logins in process (the core with the native bcrypt, the same core on bcryptjs, Better Auth) taking
// turns with the limits and capacities, as `npm run bench` measures them. Prints the rows in Markdown.
//   node bench/login.mjs [--rounds N]
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BCRYPT_COST, createOurs, createTheirs } from "./lib/in-process.mjs";
import { hashLimits } from "./lib/limits.mjs";
import { measureLogins } from "./lib/logins.mjs";
import { renderLoginRows } from "./lib/report.mjs";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const settings = { callers: 10, rounds: Number(values.rounds), hashingMs: 3000 };
const dir = mkdtempSync(join(tmpdir(), "domain-auth-bench-login-"));
const started = performance.now();
const loadBefore = loadavg()[0];
try {
  const hash = hashLimits({ cost: BCRYPT_COST });
  const ours = await createOurs(dir);
  const oursBcryptjs = await createOurs(dir, { bcryptLibrary: "bcryptjs" }, "domain-auth-bcryptjs.db");
  const theirs = await createTheirs(dir);
  try {
    hash.library = ours.auth.tools.hasher.implementation.library;
    await Promise.all([ours, oursBcryptjs, theirs].map((contender) => contender.ensureUsers(settings.callers)));
    const login = await measureLogins(
      { ours, oursBcryptjs, theirs },
      { rounds: settings.rounds, durationMs: settings.hashingMs, callers: settings.callers, cost: BCRYPT_COST },
    );
    const results = { hash, inProcess: { login }, machine: { cores: availableParallelism() }, settings };
    console.log(renderLoginRows(results));
    console.log(
      `\n${new Date().toISOString()}: ${settings.rounds} rounds, ${Math.round((performance.now() - started) / 1000)} s, load average ${loadBefore.toFixed(1)} before and ${loadavg()[0].toFixed(1)} after.`,
    );
  } finally {
    await Promise.all([ours.close(), oursBcryptjs.close(), theirs.close()]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
