#!/usr/bin/env node
// `npm start`: builds what is missing or stale, then serves apps/web with its production server.
// It installs nothing: without `npm install` first, it says so and stops.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "../apps/web/ensure-build.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const web = join(root, "apps/web");

if (!existsSync(join(root, "node_modules/next"))) {
  console.error("domain-auth: dependencies are not installed; run `npm install` first");
  process.exit(1);
}

try {
  ensureBuilt();
} catch (error) {
  console.error(`domain-auth: ${error.message}`);
  process.exit(1);
}

const server = spawn(process.execPath, ["server.mjs"], {
  cwd: web,
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
