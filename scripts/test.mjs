#!/usr/bin/env node
// Runs every check and test suite of the repository and ends with one line:
// "N passed, N failed[, N skipped]" summing all of them. Exit code 1 on any failure.
// Suites run in three lanes at the same time: the scaffold tests (mostly installs and builds of
// create-next-app projects) in one, the unit tests in another, the browser and hardening tests
// against the production server in the third. Each suite's output is printed whole when it ends, with its time.
//
//   node scripts/test.mjs                  everything
//   node scripts/test.mjs unit e2e         the build, then these suites
//   node scripts/test.mjs --config FILE    only the Vitest suite FILE configures (used by the runner's own tests)
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { basename, resolve } from "node:path";
import { tallySuite } from "./suite-tally.mjs";

const RESULTS = ".test-results";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const args = process.argv.slice(2);
const configIndex = args.indexOf("--config");
const adHocConfig = configIndex >= 0 ? args[configIndex + 1] : undefined;
const only = args.filter((_, index) => index !== configIndex && index !== configIndex + 1);

/**
 * Vitest suites. `needs` are prepared before any suite starts; `lane` groups suites that run one after
 * another, lanes running at the same time. Suites share no port (every server listens on port 0), no
 * database (each test makes its own) and no build folder (the app is built before the lanes start).
 */
const SUITES = adHocConfig
  ? [{ name: basename(adHocConfig).replace(/\.[^.]+$/, ""), config: adHocConfig, needs: [] }]
  : [
      { name: "scaffold", config: "e2e/vitest.scaffold.config.ts", needs: ["chromium", "app"], lane: 0 },
      { name: "unit", config: "vitest.config.ts", needs: ["postgres", "tmux"], lane: 1 },
      { name: "bench-smoke", config: "bench/vitest.config.ts", needs: [], lane: 1 },
      { name: "e2e", config: "e2e/vitest.config.ts", needs: ["postgres", "chromium", "app"], lane: 2 },
      { name: "hardening", config: "test/hardening/vitest.config.ts", needs: ["postgres", "app"], lane: 2 },
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

/** Builds the web app's production build once, before suites that serve it run side by side. */
async function ensureApp() {
  const { ensureBuilt } = await import("../apps/web/ensure-build.mjs");
  ensureBuilt();
}

const PREPARE = {
  postgres: ensurePostgres,
  app: ensureApp,
  chromium: () => ensureDebianPackage("chromium", () => existsSync(CHROMIUM)),
  tmux: () => ensureDebianPackage("tmux", () => spawnSync("tmux", ["-V"]).status === 0),
};

function seconds(since) {
  return Math.round((performance.now() - since) / 1000);
}

/** Runs one suite, its output kept in `.test-results/<name>.log` and printed whole when it ends. */
function runSuite(suite) {
  // Absolute: Vitest resolves the output file against the suite's root, not the working directory.
  const output = resolve(RESULTS, `${suite.name}.json`);
  const logFile = resolve(RESULTS, `${suite.name}.log`);
  rmSync(output, { force: true });
  const started = performance.now();
  const commandArgs = ["vitest", "run", "--config", suite.config, "--reporter=default", "--reporter=json", `--outputFile=${output}`];
  console.log(`\n$ npx ${commandArgs.join(" ")}  (suite ${suite.name} started)`);
  const log = createWriteStream(logFile);
  const child = spawn("npx", commandArgs, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  return new Promise((done) => {
    child.on("close", (status) => {
      log.end(() => {
        const report = existsSync(output) ? JSON.parse(readFileSync(output, "utf8")) : null;
        const tally = tallySuite(report, status);
        const time = seconds(started);
        console.log(`\n──── suite ${suite.name}: its output (${logFile}) ────\n${readFileSync(logFile, "utf8")}`);
        for (const problem of tally.problems) console.log(`✗ suite ${suite.name}: ${problem}`);
        const skipped = tally.skipped ? `, ${tally.skipped} skipped` : "";
        console.log(`suite ${suite.name}: ${tally.passed} passed, ${tally.failed} failed${skipped} in ${time} s`);
        done({ suite, tally, time });
      });
    });
  });
}

/** Runs the lanes at the same time, each lane's suites one after another. */
async function runLanes(suites) {
  const lanes = new Map();
  for (const suite of suites) lanes.set(suite.lane ?? 0, [...(lanes.get(suite.lane ?? 0) ?? []), suite]);
  const results = [];
  await Promise.all(
    [...lanes.values()].map(async (lane) => {
      for (const suite of lane) results.push(await runSuite(suite));
    }),
  );
  return results;
}

const runStarted = performance.now();
mkdirSync(RESULTS, { recursive: true });
if (only.length === 0 && !adHocConfig) {
  check("lint and format (biome)", "npx", ["biome", "check", "."]);
  check("typecheck (tsc)", "npm", ["run", "typecheck"]);
}
const built = adHocConfig ? true : check("build", "npm", ["run", "build"]);
if (built) {
  let prepared = true;
  for (const need of new Set(SUITES.flatMap((suite) => suite.needs))) {
    try {
      await PREPARE[need]();
    } catch (error) {
      prepared = false;
      totals.failed++;
      console.log(`✗ preparing ${need}: ${error instanceof Error ? error.message : error}`);
    }
  }
  if (prepared) {
    const results = await runLanes(SUITES);
    console.log("\nTime per suite (lanes run at the same time):");
    for (const { suite, tally, time } of results) {
      totals.passed += tally.passed;
      totals.failed += tally.failed;
      totals.skipped += tally.skipped;
      console.log(
        `  ${suite.name.padEnd(12)} lane ${suite.lane ?? 0}  ${String(time).padStart(5)} s  ${tally.passed} passed, ${tally.failed} failed`,
      );
    }
  }
}
console.log(`Whole run: ${seconds(runStarted)} s`);

const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exitCode = totals.failed > 0 ? 1 : 0;
