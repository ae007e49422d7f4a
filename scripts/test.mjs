#!/usr/bin/env node
// Runs every check and test suite of the repository and ends with one line:
// "N passed, N failed[, N skipped]" summing all of them. Exit code 1 on any failure.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { resolve } from "node:path";

const RESULTS = ".test-results";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const only = process.argv.slice(2);

/** Vitest suites, in the order they run. `needs` are prepared before the suite starts. */
const SUITES = [
  { name: "unit", config: "vitest.config.ts", needs: ["postgres"] },
  { name: "e2e", config: "e2e/vitest.config.ts", needs: ["postgres", "chromium"] },
  { name: "hardening", config: "test/hardening/vitest.config.ts", needs: ["postgres"] },
  { name: "bench-smoke", config: "bench/vitest.config.ts", needs: [] },
].filter((suite) => existsSync(suite.config) && (only.length === 0 || only.includes(suite.name)));

const totals = { passed: 0, failed: 0, skipped: 0 };
process.env.NEXT_TELEMETRY_DISABLED = "1";

function run(command, args, options = {}) {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  return spawnSync(command, args, { stdio: "inherit", ...options }).status === 0;
}

function check(name, command, args) {
  const ok = run(command, args);
  totals[ok ? "passed" : "failed"]++;
  console.log(`${ok ? "✓" : "✗"} ${name}`);
  return ok;
}

function reachable(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => resolve(socket.end() && true));
    socket.on("error", () => resolve(false));
  });
}

async function ensurePostgres() {
  if (await reachable(5432)) return;
  console.log("PostgreSQL is not answering on 127.0.0.1:5432; starting it");
  const versions = spawnSync("ls", ["/etc/postgresql"], { encoding: "utf8" }).stdout.trim().split("\n");
  run("pg_ctlcluster", ["--skip-systemctl-redirect", versions.at(-1), "main", "start"]);
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  console.log(`Chromium not found at ${CHROMIUM}; installing Debian's chromium`);
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (...args) =>
    run(sudo[0] ?? "apt-get", [...sudo.slice(1), ...(sudo.length ? ["apt-get"] : []), ...args], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  apt("update") && apt("install", "-y", "--no-install-recommends", "chromium");
}

function runSuite(suite) {
  // Absolute: Vitest resolves the output file against the suite's root, not the working directory.
  const output = resolve(RESULTS, `${suite.name}.json`);
  rmSync(output, { force: true });
  run("npx", ["vitest", "run", "--config", suite.config, "--reporter=default", "--reporter=json", `--outputFile=${output}`]);
  if (!existsSync(output)) {
    totals.failed++;
    console.log(`✗ suite ${suite.name} produced no results`);
    return;
  }
  const report = JSON.parse(readFileSync(output, "utf8"));
  const failedFiles = report.testResults.filter((file) => file.status === "failed" && file.assertionResults.length === 0).length;
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests + failedFiles;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  console.log(`suite ${suite.name}: ${report.numPassedTests} passed, ${report.numFailedTests + failedFiles} failed`);
}

mkdirSync(RESULTS, { recursive: true });
if (only.length === 0) {
  check("lint and format (biome)", "npx", ["biome", "check", "."]);
  check("typecheck (tsc)", "npm", ["run", "typecheck"]);
}
const built = check("build", "npm", ["run", "build"]);
if (built) {
  const needs = new Set(SUITES.flatMap((suite) => suite.needs));
  if (needs.has("postgres")) await ensurePostgres();
  if (needs.has("chromium")) ensureChromium();
  for (const suite of SUITES) runSuite(suite);
}

const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exitCode = totals.failed > 0 ? 1 : 0;
