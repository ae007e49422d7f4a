#!/usr/bin/env node
// Runs every check and test suite of the repository and ends with one line:
// "N passed, N failed[, N skipped]" summing all of them. Exit code 1 on any failure.
//
//   node scripts/test.mjs                  everything
//   node scripts/test.mjs unit e2e         the build, then these suites
//   node scripts/test.mjs --config FILE    only the Vitest suite FILE configures (used by the runner's own tests)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { basename, resolve } from "node:path";
import { tallySuite } from "./suite-tally.mjs";

const RESULTS = ".test-results";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const args = process.argv.slice(2);
const configIndex = args.indexOf("--config");
const adHocConfig = configIndex >= 0 ? args[configIndex + 1] : undefined;
const only = args.filter((_, index) => index !== configIndex && index !== configIndex + 1);

/** Vitest suites, in the order they run. `needs` are prepared before the suite starts. */
const SUITES = adHocConfig
  ? [{ name: basename(adHocConfig).replace(/\.[^.]+$/, ""), config: adHocConfig, needs: [] }]
  : [
      { name: "unit", config: "vitest.config.ts", needs: ["postgres", "tmux"] },
      { name: "e2e", config: "e2e/vitest.config.ts", needs: ["postgres", "chromium"] },
      { name: "hardening", config: "test/hardening/vitest.config.ts", needs: ["postgres"] },
      { name: "bench-smoke", config: "bench/vitest.config.ts", needs: [] },
    ].filter((suite) => only.length === 0 || only.includes(suite.name));

const totals = { passed: 0, failed: 0, skipped: 0 };
process.env.NEXT_TELEMETRY_DISABLED = "1";

function run(command, commandArgs, options = {}) {
  console.log(`\n$ ${command} ${commandArgs.join(" ")}`);
  return spawnSync(command, commandArgs, { stdio: "inherit", ...options }).status;
}

function check(name, command, commandArgs) {
  const ok = run(command, commandArgs) === 0;
  totals[ok ? "passed" : "failed"]++;
  console.log(`${ok ? "✓" : "✗"} ${name}`);
  return ok;
}

function reachable(port) {
  return new Promise((done) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => done(socket.end() && true));
    socket.on("error", () => done(false));
  });
}

async function ensurePostgres() {
  if (await reachable(5432)) return;
  console.log("PostgreSQL is not answering on 127.0.0.1:5432; starting it");
  const versions = spawnSync("ls", ["/etc/postgresql"], { encoding: "utf8" }).stdout.trim().split("\n");
  run("pg_ctlcluster", ["--skip-systemctl-redirect", versions.at(-1), "main", "start"]);
}

/** Installs a Debian package when `present()` says it is missing (as root, or through sudo). */
function ensureDebianPackage(name, present) {
  if (present()) return;
  console.log(`${name} not found; installing Debian's ${name}`);
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (...aptArgs) =>
    run(sudo[0] ?? "apt-get", [...sudo.slice(1), ...(sudo.length ? ["apt-get"] : []), ...aptArgs], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    }) === 0;
  apt("update") && apt("install", "-y", "--no-install-recommends", name);
}

const PREPARE = {
  postgres: ensurePostgres,
  chromium: () => ensureDebianPackage("chromium", () => existsSync(CHROMIUM)),
  tmux: () => ensureDebianPackage("tmux", () => spawnSync("tmux", ["-V"]).status === 0),
};

function runSuite(suite) {
  // Absolute: Vitest resolves the output file against the suite's root, not the working directory.
  const output = resolve(RESULTS, `${suite.name}.json`);
  rmSync(output, { force: true });
  const status = run("npx", ["vitest", "run", "--config", suite.config, "--reporter=default", "--reporter=json", `--outputFile=${output}`]);
  const report = existsSync(output) ? JSON.parse(readFileSync(output, "utf8")) : null;
  const tally = tallySuite(report, status);
  totals.passed += tally.passed;
  totals.failed += tally.failed;
  totals.skipped += tally.skipped;
  for (const problem of tally.problems) console.log(`✗ suite ${suite.name}: ${problem}`);
  console.log(`suite ${suite.name}: ${tally.passed} passed, ${tally.failed} failed${tally.skipped ? `, ${tally.skipped} skipped` : ""}`);
}

mkdirSync(RESULTS, { recursive: true });
if (only.length === 0 && !adHocConfig) {
  check("lint and format (biome)", "npx", ["biome", "check", "."]);
  check("typecheck (tsc)", "npm", ["run", "typecheck"]);
}
const built = adHocConfig ? true : check("build", "npm", ["run", "build"]);
if (built) {
  for (const need of new Set(SUITES.flatMap((suite) => suite.needs))) await PREPARE[need]();
  for (const suite of SUITES) runSuite(suite);
}

const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exitCode = totals.failed > 0 ? 1 : 0;
