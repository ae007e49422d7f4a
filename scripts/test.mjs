#!/usr/bin/env node
// Runs every check and test suite of the repository and ends with one line:
// "N passed, N failed[, N skipped]" summing all of them. Exit code 1 on any failure.
// After auth-core's build come three lanes: the scaffold tests (installs and builds of create-next-app
// projects); lint, unit tests and the benchmarks' smoke run; the type check, the web app's build, then
// the browser and hardening tests against it. On a machine with 4 cores or more the lanes run at the
// same time; with fewer, one after another (each suite already keeps two cores busy: side by side on
// two they took twice as long in all). TEST_LANES=parallel or serial decides instead. The timing tests
// run last, alone. Each suite's output is printed whole when it ends, with its time.
//
//   node scripts/test.mjs                  everything
//   node scripts/test.mjs unit e2e         the build, then these suites
//   node scripts/test.mjs --config FILE    only the Vitest suite FILE configures (used by the runner's own tests)
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { availableParallelism } from "node:os";
import { basename, resolve } from "node:path";
import { tallySuite } from "./suite-tally.mjs";

const RESULTS = ".test-results";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const args = process.argv.slice(2);
const configIndex = args.indexOf("--config");
const adHocConfig = configIndex >= 0 ? args[configIndex + 1] : undefined;
const only = args.filter((_, index) => configIndex < 0 || (index !== configIndex && index !== configIndex + 1));

/**
 * The steps of a run: Vitest suites (`config`) and checks (`command`). `lane` groups steps that run one
 * after another, lanes running at the same time; `needs` are prepared before any lane starts. Steps
 * share no port (every server listens on port 0), no database (each test makes its own) and no build
 * folder: the web app is built in the lane of the suites that serve it, before them, and the scaffold
 * tests build projects of their own.
 */
const ALL_STEPS = [
  { name: "scaffold", config: "e2e/vitest.scaffold.config.ts", needs: ["chromium"], lane: 0 },
  { name: "lint", command: ["npx", "biome", "check", "."], lane: 1 },
  { name: "unit", config: "vitest.config.ts", needs: ["postgres", "tmux"], lane: 1 },
  { name: "bench-smoke", config: "bench/vitest.config.ts", needs: [], lane: 1 },
  // Before the web build: tsc reads apps/web/.next/types, which next build replaces.
  { name: "typecheck", command: ["npm", "run", "typecheck"], lane: 2 },
  { name: "web build", command: ["node", "scripts/build-web.mjs"], lane: 2, before: ["e2e", "hardening"] },
  { name: "e2e", config: "e2e/vitest.config.ts", needs: ["postgres", "chromium"], lane: 2 },
  { name: "hardening", config: "test/hardening/vitest.config.ts", needs: ["postgres"], lane: 2 },
  // Known and unknown accounts must cost the same time: measured once the other lanes have ended.
  { name: "timing", config: "vitest.timing.config.ts", needs: ["postgres"], lane: "last" },
];
const STEPS = adHocConfig
  ? [{ name: basename(adHocConfig).replace(/\.[^.]+$/, ""), config: adHocConfig, needs: [], lane: 0 }]
  : ALL_STEPS.filter((step) => only.length === 0 || only.includes(step.name) || (step.before ?? []).some((name) => only.includes(name)));

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

function seconds(since) {
  return Math.round((performance.now() - since) / 1000);
}

/** Runs one step, its output kept in `.test-results/<name>.log` and printed whole when it ends. */
function runStep(step) {
  const slug = step.name.replace(/\W+/g, "-");
  // Absolute: Vitest resolves the output file against the suite's root, not the working directory.
  const output = resolve(RESULTS, `${slug}.json`);
  const logFile = resolve(RESULTS, `${slug}.log`);
  rmSync(output, { force: true });
  const started = performance.now();
  const [command, ...commandArgs] = step.command ?? [
    "npx",
    "vitest",
    "run",
    "--config",
    step.config,
    "--reporter=default",
    "--reporter=json",
    `--outputFile=${output}`,
  ];
  console.log(`\n$ ${command} ${commandArgs.join(" ")}  (${step.name} started)`);
  const log = createWriteStream(logFile);
  const child = spawn(command, commandArgs, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  return new Promise((done) => {
    child.on("close", (status) => {
      log.end(() => {
        const time = seconds(started);
        const tally = step.command
          ? { passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, skipped: 0, problems: [] }
          : tallySuite(existsSync(output) ? JSON.parse(readFileSync(output, "utf8")) : null, status);
        console.log(`\n──── ${step.name}: its output (${logFile}) ────\n${readFileSync(logFile, "utf8")}`);
        for (const problem of tally.problems) console.log(`✗ suite ${step.name}: ${problem}`);
        const skipped = tally.skipped ? `, ${tally.skipped} skipped` : "";
        console.log(`${tally.failed ? "✗" : "✓"} ${step.name}: ${tally.passed} passed, ${tally.failed} failed${skipped} in ${time} s`);
        done({ step, tally, time });
      });
    });
  });
}

/** Whether the lanes run at the same time: on 4 cores or more, unless TEST_LANES says. */
const PARALLEL = process.env.TEST_LANES ? process.env.TEST_LANES === "parallel" : availableParallelism() >= 4;

/**
 * Runs the lanes, each lane's steps one after another: at the same time when {@link PARALLEL}, else
 * lane after lane (lanes 1, 2, then 0: the checks first); the lane "last" after all of them.
 */
async function runLanes(steps) {
  const lanes = new Map();
  for (const step of steps) lanes.set(step.lane, [...(lanes.get(step.lane) ?? []), step]);
  const last = lanes.get("last") ?? [];
  lanes.delete("last");
  const results = [];
  const runLane = async (lane) => {
    for (const step of lane) results.push(await runStep(step));
  };
  if (PARALLEL) await Promise.all([...lanes.values()].map(runLane));
  else for (const key of [...lanes.keys()].sort((a, b) => ((a + 2) % 3) - ((b + 2) % 3))) await runLane(lanes.get(key));
  for (const step of last) results.push(await runStep(step));
  return results;
}

const runStarted = performance.now();
mkdirSync(RESULTS, { recursive: true });
// auth-core's build comes first: every lane imports it.
const built = adHocConfig ? true : check("build", "npm", ["run", "build"]);
if (built) {
  let prepared = true;
  for (const need of new Set(STEPS.flatMap((step) => step.needs ?? []))) {
    try {
      await PREPARE[need]();
    } catch (error) {
      prepared = false;
      totals.failed++;
      console.log(`✗ preparing ${need}: ${error instanceof Error ? error.message : error}`);
    }
  }
  if (prepared) {
    const results = await runLanes(STEPS);
    console.log(`\nTime per step (lanes run ${PARALLEL ? "at the same time" : "one after another"}):`);
    for (const { step, tally, time } of results) {
      totals.passed += tally.passed;
      totals.failed += tally.failed;
      totals.skipped += tally.skipped;
      console.log(
        `  ${step.name.padEnd(12)} lane ${step.lane}  ${String(time).padStart(5)} s  ${tally.passed} passed, ${tally.failed} failed`,
      );
    }
  }
}
console.log(`Whole run: ${seconds(runStarted)} s`);

const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : "";
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exitCode = totals.failed > 0 ? 1 : 0;
