#!/usr/bin/env node
import { execFileSync } from "node:child_process";
// Profiles one server under a `me` (or get-session) load: starts it with --cpu-prof, runs
// autocannon against it, stops it and summarizes the profile of the load. `--target refresh|list`
// loads domain-auth's refresh or entity list (`GET /api/post?limit=20`) instead of `me`.
//   node bench/profile.mjs next|node-http|better-auth [--seconds N] [--dir DIR] [--target me|refresh|list]
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as http from "./lib/http.mjs";

const { values, positionals } = parseArgs({
  options: { seconds: { type: "string", default: "6" }, dir: { type: "string" }, target: { type: "string", default: "me" } },
  allowPositionals: true,
});
const starters = { next: http.startNextServer, "node-http": http.startCoreServer, "better-auth": http.startBetterAuthServer };
const which = positionals[0];
if (!starters[which]) {
  console.error(`usage: node bench/profile.mjs ${Object.keys(starters).join("|")} [--seconds N] [--dir DIR]`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "domain-auth-profile-"));
const profiles = values.dir ?? join(work, "profiles");
const server = await starters[which](work, { cpuProfileDir: profiles });
try {
  const { target } = values;
  const prepared =
    which === "better-auth" ? await http.prepareBetterAuth(server) : await http.prepareCore(server, target === "refresh" ? 10 : 0);
  if (target === "list") await http.preparePosts(prepared, 20);
  const seconds = Number(values.seconds);
  const run =
    target === "refresh"
      ? await http.hitRefresh(prepared, { connections: 10, seconds })
      : await http.hitMe(prepared, { connections: 10, seconds, target });
  console.log(
    `${which} ${target}: ${run.requestsPerSecond.toFixed(0)} req/s, p99 ${run.p99.toFixed(1)} ms, ${run.serverCpuMsPerRequest.toFixed(2)} ms CPU per request`,
  );
  await server.stop();
  const file = join(profiles, `${server.name}.cpuprofile`);
  const summary = fileURLToPath(new URL("./lib/profile-summary.mjs", import.meta.url));
  console.log(execFileSync(process.execPath, [summary, file, "--last-ms", String(seconds * 1000 - 500)], { encoding: "utf8" }));
  console.log(`profile: ${file}`);
} finally {
  await server.stop();
  for (const file of readdirSync(work)) if (file.includes(".db")) rmSync(join(work, file), { force: true });
}
