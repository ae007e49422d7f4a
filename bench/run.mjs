#!/usr/bin/env node
// `npm run bench`: every benchmark in one run, contenders taking turns; prints the tables and
// writes docs/benchmarks.md.
//   node run.mjs [--cpu-prof DIR] [--no-write]
// --cpu-prof DIR  also profiles the three HTTP servers (written to DIR when they stop)
// --no-write      prints only, leaves docs/benchmarks.md as it is
// --baseline PATH another build of the core (PATH/dist/index.js) on bare node:http in the same `me` turns
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureTrivialRouteBuilt, ME_VIA_NEXT_PATH, TRIVIAL_ROUTE_PATH } from "@domain-auth/test-support/app-variants";
import { ensureBuilt } from "../apps/web/ensure-build.mjs";
import { createEventScale } from "./lib/events-scale.mjs";
import * as http from "./lib/http.mjs";
import { BCRYPT_COST, createOurs, createTheirs } from "./lib/in-process.mjs";
import { hashLimits, meFloor } from "./lib/limits.mjs";
import { createListScale, measureListScale, QUERY_SIZES } from "./lib/list-scale.mjs";
import { alternate, closedLoop } from "./lib/load.mjs";
import { measureLogins } from "./lib/logins.mjs";
import { renderMarkdown, renderText } from "./lib/report.mjs";
import * as startup from "./lib/startup.mjs";
import { median, sleep } from "./lib/stats.mjs";
import { createTenantScale, measureTenantScale } from "./lib/tenant-scale.mjs";

const { values: flags } = parseArgs({
  options: {
    "cpu-prof": { type: "string" },
    "no-write": { type: "boolean" },
    "save-results": { type: "string" },
    baseline: { type: "string" },
  },
});
const REPORT = fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url));

/** Settings of the run, printed with the results. */
const SETTINGS = {
  callers: 10,
  inProcess: { rounds: 3, meMs: 1500, hashingMs: 3000 },
  http: { rounds: 3, seconds: 3, connections: 10 },
  // Better Auth gets a lower rate: at ours it would be near its ceiling even without a storm.
  latency: { rounds: 5, seconds: 2, rate: 400, betterAuthRate: 100, connections: 4, stormConnections: 16, floodConnections: 200 },
  startup: { rounds: 7 },
  loginPool: 16,
};

let sectionStarted = performance.now();
let sectionName = null;
/** Prints a progress line; a new section also closes the previous one's timing. */
const log = (line, section) => {
  if (section) {
    if (sectionName) results.sectionSeconds[sectionName] = (performance.now() - sectionStarted) / 1000;
    sectionName = section;
    sectionStarted = performance.now();
  }
  process.stderr.write(`${line}\n`);
};
/** Appends `value` to the list `lists[name]`. */
function collect(lists, name, value) {
  lists[name] ??= [];
  lists[name].push(value);
}
const started = performance.now();
const results = {
  date: new Date().toISOString(),
  machine: {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? "unknown",
    node: process.version,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadBefore: loadavg()[0],
  },
  settings: SETTINGS,
  versions: {
    betterAuth: versionOf("better-auth", "dist/index.mjs"),
    createT3App: versionOf("create-t3-app", "dist/index.js"),
    next: versionOf("next", "dist/server/next.js"),
  },
  notes: [],
  sectionSeconds: {},
};

/** The installed version of a package, from the file `entry` its main export resolves to. */
function versionOf(name, entry) {
  try {
    const resolved = fileURLToPath(import.meta.resolve(name));
    return JSON.parse(readFileSync(`${resolved.slice(0, resolved.length - entry.length)}package.json`, "utf8")).version;
  } catch {
    return "unknown";
  }
}

log("Checking builds (auth-core, the wizard, the web app)…", "build");
try {
  const builtAt = performance.now();
  const ran = ensureBuilt();
  if (ran.length > 0)
    results.notes.push(
      `Built ${ran.join(" and ")} first (${((performance.now() - builtAt) / 1000).toFixed(0)} s, not part of any figure).`,
    );
} catch (error) {
  results.notes.push(`The build failed (${error.message}); what needs it was skipped.`);
  log(`warning: ${error.message}`);
}

const dir = mkdtempSync(join(tmpdir(), "domain-auth-bench-"));
const servers = [];
process.on("SIGINT", async () => {
  await Promise.allSettled(servers.map((server) => server.stop()));
  process.exit(130);
});

try {
  // ---- Limits ----
  log("Limits: one password hash, one HMAC verify, one indexed read…", "limits");
  results.hash = hashLimits({ cost: BCRYPT_COST });

  // ---- In process ----
  log("In process: domain-auth and Better Auth, taking turns…", "in process");
  const ours = await createOurs(dir);
  // The same core forced onto bcryptjs: the fallback's logins, measured in the same turns.
  const oursBcryptjs = await createOurs(dir, { bcryptLibrary: "bcryptjs" }, "domain-auth-bcryptjs.db");
  results.hash.library = ours.auth.tools.hasher.implementation.library;
  const theirs = await createTheirs(dir);
  await meFloor(ours, { batches: 1, size: 500 }); // warm-up
  const floorRuns = [];
  const { rounds, meMs, hashingMs } = SETTINGS.inProcess;
  const measure = (contender, operation, durationMs) => async () =>
    (await closedLoop(contender[operation], { concurrency: SETTINGS.callers, durationMs })).opsPerSecond;
  const pair = (operation, durationMs, others = []) =>
    alternate(
      [
        { name: "ours", measure: measure(ours, operation, durationMs) },
        { name: "theirs", measure: measure(theirs, operation, durationMs) },
        ...others,
      ],
      rounds,
    );
  // Warm-up, and the users login cycles through.
  await Promise.all([ours.ensureUsers(SETTINGS.callers), oursBcryptjs.ensureUsers(SETTINGS.callers), theirs.ensureUsers(SETTINGS.callers)]);
  await closedLoop(ours.me, { durationMs: 500 });
  await closedLoop(theirs.me, { durationMs: 500 });
  results.inProcess = {
    // The floor (one verify and one read, back to back on this thread) in the same turns.
    me: await pair("me", meMs, [
      {
        name: "floor",
        measure: async () => {
          const floor = await meFloor(ours, { batches: 3, size: 200 });
          floorRuns.push(floor);
          return floor.floorPerSecond;
        },
      },
    ]),
    register: await pair("register", hashingMs),
    // The ceilings are measured in the same turns as the logins, for each library; the core on
    // bcryptjs logs in in the same turns too.
    login: await measureLogins(
      { ours, oursBcryptjs, theirs },
      { rounds, durationMs: hashingMs, callers: SETTINGS.callers, cost: BCRYPT_COST },
    ),
  };
  const verifyMs = median(floorRuns.map((run) => run.verifyMs));
  const readMs = median(floorRuns.map((run) => run.readMs));
  const sessionReadMs = median(floorRuns.map((run) => run.sessionReadMs));
  results.floor = {
    verifyMs,
    readMs,
    sessionReadMs,
    floorMs: verifyMs + sessionReadMs,
    floorPerSecond: 1000 / (verifyMs + sessionReadMs),
    floorBeforeMs: verifyMs + readMs,
  };
  await ours.close();
  await oursBcryptjs.close();
  await theirs.close();

  // ---- Security events at scale ----
  log("Security events: the newest page among few and among many…", "events");
  const scale = await createEventScale(dir);
  const eventTurn = (instance, page) => async () =>
    (await closedLoop(instance[page], { concurrency: SETTINGS.callers, durationMs: meMs })).opsPerSecond;
  results.events = {
    few: scale.few,
    many: scale.many,
    ...(await alternate(
      [
        { name: "everyoneFew", measure: eventTurn(scale.small, "everyone") },
        { name: "everyoneMany", measure: eventTurn(scale.large, "everyone") },
        { name: "oneUserFew", measure: eventTurn(scale.small, "oneUser") },
        { name: "oneUserMany", measure: eventTurn(scale.large, "oneUser") },
      ],
      rounds,
    )),
  };
  await scale.close();

  // ---- Lists at scale ----
  log("Lists at scale: a page of 20 among 1,000 to 1,000,000 posts, SQLite and PostgreSQL…", "lists");
  const lists = await createListScale(dir);
  try {
    results.lists = await measureListScale(lists, { rounds, durationMs: 1000, callers: SETTINGS.callers });
  } finally {
    await lists.close();
  }
  log("List queries: search, sort and filter beside the default order, 10,000 to 1,000,000 posts…", "list queries");
  const listQueries = await createListScale(dir, { sizes: QUERY_SIZES, queries: true });
  try {
    results.listQueries = await measureListScale(listQueries, { rounds, durationMs: 1000, callers: SETTINGS.callers });
  } finally {
    await listQueries.close();
  }

  // ---- Tenant lists at scale, tenant against plain, `me` with and without organizations ----
  log("Tenant lists: a page of 20 of one organization among 1,000 and 1,000,000 records, SQLite and PostgreSQL…", "tenants");
  const tenants = await createTenantScale(dir);
  try {
    results.tenants = await measureTenantScale(tenants, { rounds, durationMs: 1000, callers: SETTINGS.callers });
  } finally {
    await tenants.close();
  }

  // ---- Over HTTP ----
  log("Over HTTP: starting the servers…", "server start");
  const serverOptions = flags["cpu-prof"] ? { cpuProfileDir: flags["cpu-prof"] } : {};
  const start = async (starter) => {
    const server = await starter(dir, serverOptions);
    servers.push(server);
    return server;
  };
  const bare = await http.preparePosts(await http.prepareCore(await start(http.startCoreServer), SETTINGS.loginPool), 20);
  const floor = await start((_dir, options) => http.startFloorServer(bare, options));
  const baseline = flags.baseline
    ? await http.prepareCore(
        await start((work, options) => http.startCoreServer(work, { ...options, name: "baseline", entry: resolve(flags.baseline) })),
        0,
      )
    : null;
  if (baseline) results.baseline = flags.baseline;
  const betterAuth = await http.prepareBetterAuth(await start(http.startBetterAuthServer));
  let next = null;
  try {
    const script = join(ensureTrivialRouteBuilt(), "server.mjs");
    next = await http.prepareCore(await start((work, options) => http.startNextServer(work, { ...options, script })), 0);
    // The same `me` by way of a Next.js route handler (a route of the project's own, which server.mjs leaves to Next.js).
    next.meViaNext = { ...next.me, path: ME_VIA_NEXT_PATH };
    next.trivial = { path: TRIVIAL_ROUTE_PATH, headers: {} };
  } catch (error) {
    results.notes.push(
      `The web app's server did not start, so the rows through Next.js are missing: ${String(error.message).split("\n")[0]}`,
    );
    log(`warning: the web app did not start: ${error.message}`);
  }
  const contenders = [
    ...(next
      ? [
          { name: "next", server: next },
          { name: "nextHandler", server: next, target: "meViaNext" },
          { name: "nextTrivial", server: next, target: "trivial" },
        ]
      : []),
    { name: "bare", server: bare },
    { name: "bareCookie", server: bare, target: "meCookie" },
    { name: "bareApiKey", server: bare, target: "meApiKey" },
    { name: "floor", server: floor },
    ...(baseline ? [{ name: "baseline", server: baseline }] : []),
    { name: "betterAuth", server: betterAuth },
  ];
  const { connections, seconds } = SETTINGS.http;
  for (const { server, target } of contenders) await http.hitMe(server, { connections, seconds: 1, target });
  log("Over HTTP: me and get-session at full speed, taking turns…", "HTTP throughput");
  const throughputRuns = {};
  results.http = await alternate(
    contenders.map(({ name, server, target }) => ({
      name,
      measure: async () => {
        const run = await http.hitMe(server, { connections, seconds, target });
        collect(throughputRuns, name, run);
        return run.requestsPerSecond;
      },
    })),
    SETTINGS.http.rounds,
  );
  for (const [name, runs] of Object.entries(throughputRuns)) {
    results.http[name].p99 = median(runs.map((run) => run.p99));
    results.http[name].cpuMsPerRequest = median(runs.map((run) => run.serverCpuMsPerRequest));
    results.http[name].failures = runs.reduce((sum, run) => sum + run.other, 0);
  }

  log("Over HTTP: refresh, the entity list and me on the bare server, taking turns…", "refresh");
  const refreshRuns = {};
  results.refresh = await alternate(
    [
      { name: "refresh", run: () => http.hitRefresh(bare, { connections, seconds }) },
      { name: "list", run: () => http.hitMe(bare, { connections, seconds, target: "list" }) },
      { name: "me", run: () => http.hitMe(bare, { connections, seconds }) },
    ].map(({ name, run }) => ({
      name,
      measure: async () => {
        const result = await run();
        collect(refreshRuns, name, result);
        return result.requestsPerSecond;
      },
    })),
    SETTINGS.http.rounds,
  );
  for (const [name, runs] of Object.entries(refreshRuns)) {
    results.refresh[name].p99 = median(runs.map((run) => run.p99));
    results.refresh[name].cpuMsPerRequest = median(runs.map((run) => run.serverCpuMsPerRequest));
    results.refresh[name].failures = runs.reduce((sum, run) => sum + run.other, 0);
  }

  log("Over HTTP: me latency idle, during login and register storms and a register flood…", "latency");
  const latency = SETTINGS.latency;
  const meAt = {
    rate: latency.rate,
    seconds: latency.seconds,
    connections: latency.connections,
    stormConnections: latency.stormConnections,
  };
  const betterAuthAt = { ...meAt, rate: latency.betterAuthRate };
  const phases = {};
  const phase = (name, work, server, { settleMs = 0 } = {}) => ({
    name,
    measure: async () => {
      if (server.eventLoopDelay) await server.eventLoopDelay();
      const run = await work();
      if (server.eventLoopDelay) run.eventLoopDelay = await server.eventLoopDelay();
      collect(phases, name, run);
      // The client stops waiting when a storm ends, but the server still works through the logins
      // and registrations it had taken: let them finish, so the next phase starts on an empty hash
      // queue (they would otherwise fill it and the next storm's first answers would be 503s).
      await sleep(settleMs);
      return run.me.p99;
    },
  });
  const settle = { settleMs: 1500 };
  const flood = (kind) => () => http.meDuringStorm(bare, bare, kind, { ...meAt, stormConnections: latency.floodConnections });
  await alternate(
    [
      phase("idle", async () => ({ me: await http.hitMe(bare, meAt) }), bare),
      phase("login", () => http.meDuringStorm(bare, bare, "login", meAt), bare, settle),
      phase("register", () => http.meDuringStorm(bare, bare, "register", meAt), bare, settle),
      phase("registerFlood", flood("register"), bare, settle),
      phase("meFlood", flood("me"), bare),
      phase("betterAuthIdle", async () => ({ me: await http.hitMe(betterAuth, betterAuthAt) }), betterAuth),
      phase("betterAuthSignUp", () => http.meDuringStorm(betterAuth, betterAuth, "register", betterAuthAt), betterAuth),
    ],
    latency.rounds,
  );
  results.latency = Object.fromEntries(
    Object.entries(phases).map(([name, runs]) => [
      name,
      {
        p50: median(runs.map((run) => run.me.p50)),
        p99: median(runs.map((run) => run.me.p99)),
        p99PerTurn: runs.map((run) => run.me.p99),
        eventLoopP99: runs[0].eventLoopDelay ? median(runs.map((run) => run.eventLoopDelay?.p99 ?? Number.NaN)) : undefined,
        eventLoopMax: runs[0].eventLoopDelay ? median(runs.map((run) => run.eventLoopDelay?.max ?? Number.NaN)) : undefined,
        answeredPerSecond: median(runs.map((run) => run.me.requestsPerSecond)),
        stormPerSecond: runs[0].storm ? median(runs.map((run) => run.storm.requestsPerSecond)) : undefined,
        // Answers 503 from the full hash queue: load shed on purpose, counted apart from failures.
        stormShedPerSecond: runs[0].storm ? median(runs.map((run) => (run.storm.statuses[503] ?? 0) / run.storm.seconds)) : undefined,
        stormFailures: runs[0].storm ? runs.reduce((sum, run) => sum + run.storm.other - (run.storm.statuses[503] ?? 0), 0) : undefined,
      },
    ]),
  );
  await Promise.all(servers.splice(0).map((server) => server.stop()));

  // ---- Start-up of the command-line tools ----
  log("Start-up: the wizard and create-t3-app, taking turns…", "start-up");
  results.startup = await alternate(
    [
      { name: "wizardFirstPrompt", measure: startup.wizardFirstPrompt },
      { name: "t3FirstPrompt", measure: startup.t3FirstPrompt },
      { name: "wizardValidate", measure: startup.wizardValidate },
      { name: "t3Help", measure: startup.t3Help },
      { name: "nodeFloor", measure: startup.nodeFloor },
    ],
    SETTINGS.startup.rounds,
  );
} finally {
  await Promise.allSettled(servers.map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
}

log("Done.", "end");
results.machine.loadAfter = loadavg()[0];
results.durationSeconds = (performance.now() - started) / 1000;
console.log(renderText(results));
// The raw figures, to render the report again (bench/lib/report.mjs renderMarkdown) without running anew.
if (flags["save-results"]) writeFileSync(flags["save-results"], JSON.stringify(results, null, 2));
if (!flags["no-write"]) {
  writeFileSync(REPORT, renderMarkdown(results));
  log(`Wrote ${REPORT}`);
}
