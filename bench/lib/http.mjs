// Over HTTP on the loopback: the servers (each its own process) and autocannon runs against them.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { BCRYPT_COST, DOMAIN_FILE, PASSWORD, SECRET } from "./in-process.mjs";
import { quantile, sleep } from "./stats.mjs";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
export const WEB_SERVER = here("../../apps/web/server.mjs");

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node script` and resolves once it prints a line matching `ready`, with the port.
 * `cpuProfileDir` adds `--cpu-prof` (the profile is written when the server stops).
 */
export async function startProcess(name, script, { env, port, ready, cpuProfileDir, reportsEventLoop = false }) {
  const args = [...(cpuProfileDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfileDir, "--cpu-prof-name", `${name}.cpuprofile`] : []), script];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port ?? 0), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listening = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk) => {
      output += chunk;
      const match = ready(output);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
  child.removeAllListeners("exit");
  let waiting = null;
  child.stdout.on("data", (chunk) => {
    const match = /\{"eventLoopDelay":\{[^}]*\}\}/.exec(String(chunk));
    if (match && waiting) waiting(JSON.parse(match[0]).eventLoopDelay);
  });
  return {
    name,
    url: `http://127.0.0.1:${listening.port}`,
    pid: child.pid,
    /** Only servers that report it (bench/servers/core-http.mjs): event loop delays since the last call. */
    eventLoopDelay: reportsEventLoop
      ? () =>
          new Promise((resolve) => {
            const timer = setTimeout(() => resolve(null), 2000);
            waiting = (value) => {
              clearTimeout(timer);
              waiting = null;
              resolve(value);
            };
            child.kill("SIGUSR2");
          })
      : undefined,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

export const portLine = (output) => {
  const match = /\{"port":(\d+)\}/.exec(output);
  return match ? { port: Number(match[1]) } : null;
};

export const coreEnv = (database) => ({
  DOMAIN_FILE,
  DATABASE_URL: `file:${database}`,
  AUTH_SECRET: SECRET,
  AUTH_BCRYPT_COST: String(BCRYPT_COST),
  // Every storm comes from the loopback but stands for many clients: with the per-address limit
  // (100 an hour) it would be answered 429 after its first 100, and the hash queue never measured.
  AUTH_REGISTER_LIMIT: "1000000",
});

/**
 * auth-core's handler on a bare node:http server; `entry` (a path to a build's `index.js`) runs
 * another build of the core, `name` tells the servers of one run apart.
 */
export async function startCoreServer(dir, { entry, name = "node-http", ...options } = {}) {
  const database = join(dir, `http-${name === "node-http" ? "core" : name}.db`);
  const server = await startProcess(name, here("../servers/core-http.mjs"), {
    env: { ...coreEnv(database), ...(entry ? { BENCH_CORE_ENTRY: entry } : {}) },
    ready: portLine,
    reportsEventLoop: true,
    ...options,
  });
  return { ...server, database };
}

/**
 * The floor of `me` (bench/servers/floor-http.mjs): node:http, one HS256 check with node:crypto,
 * the same session-and-user read with one prepared statement, on the database of `core` (a
 * prepared bare server), which it answers `me` for with the same token.
 */
export async function startFloorServer(core, options = {}) {
  const server = await startProcess("floor-http", here("../servers/floor-http.mjs"), {
    env: { FLOOR_DATABASE: core.database, AUTH_SECRET: SECRET },
    ready: portLine,
    ...options,
  });
  return { ...server, me: core.me };
}

/**
 * The web app's production server (apps/web/server.mjs: Next.js with the same handler); `script`
 * runs another copy of it (the copy with a trivial route, `ensureTrivialRouteBuilt`).
 */
export async function startNextServer(dir, { script = WEB_SERVER, ...options } = {}) {
  const port = await freePort();
  return startProcess("next", script, {
    env: { ...coreEnv(join(dir, "http-next.db")), HOSTNAME: "127.0.0.1" },
    port,
    ready: (output) => (/domain-auth: (ready at|create the first administrator)/.test(output) ? { port } : null),
    ...options,
  });
}

/** Better Auth on a bare node:http server. */
export function startBetterAuthServer(dir, options = {}) {
  return startProcess("better-auth-http", here("../servers/better-auth-http.mjs"), {
    env: { BENCH_DATABASE: join(dir, "http-better-auth.db"), AUTH_SECRET: SECRET },
    ready: portLine,
    ...options,
  });
}

// Better Auth refuses a POST without an Origin it trusts (its CSRF check); domain-auth ignores it.
const jsonHeaders = { "content-type": "application/json", origin: "http://localhost" };

async function post(url, body) {
  const response = await fetch(url, { method: "POST", headers: jsonHeaders, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** An API key of the token's user, or `null` where the server has no API keys. */
async function createApiKey(api, authorization) {
  const response = await fetch(`${api}/api-keys`, {
    method: "POST",
    headers: { ...jsonHeaders, authorization },
    body: JSON.stringify({ name: "bench" }),
  });
  return response.status === 201 ? (await response.json()).key : null;
}

/**
 * Prepares a domain-auth server (bare or through Next.js): the first user through setup, whose
 * token `me` uses, and `users` more through register for login storms.
 */
export async function prepareCore(server, users) {
  const api = `${server.url}/api/user`;
  const admin = `admin-${Date.now()}@bench.test`;
  const { token } = await (await post(`${api}/setup`, { email: admin, password: PASSWORD })).json();
  const emails = [];
  for (let index = 0; index < users; index++) emails.push(`pool-${index}-${Date.now()}@bench.test`);
  // A few at a time: a burst larger than the hash queue would be answered 503.
  for (let index = 0; index < emails.length; index += 4)
    await Promise.all(emails.slice(index, index + 4).map((email) => post(`${api}/register`, { email, password: PASSWORD })));
  const authorization = `Bearer ${token}`;
  const apiKey = await createApiKey(api, authorization);
  return {
    ...server,
    me: { path: "/api/user/me", headers: { authorization } },
    // The same user's API key (docs/api-keys.md); absent on a build without API keys (an older `--baseline`).
    ...(apiKey ? { meApiKey: { path: "/api/user/me", headers: { authorization: `Bearer ${apiKey}` } } } : {}),
    // The same token as the access cookie of a cookie session (docs/api.md#cookie-sessions), beside a cookie of the page's own.
    meCookie: { path: "/api/user/me", headers: { cookie: `theme=dark; domain-auth.token=${token}` } },
    list: { path: "/api/post?limit=20", headers: { authorization } },
    login: { path: "/api/user/login", emails },
    refresh: { path: "/api/user/refresh" },
    register: { path: "/api/user/register", body: (email) => ({ email, password: PASSWORD }) },
  };
}

/**
 * Fills the post collection for the entity list measure: `count` posts by the prepared server's
 * administrator, so `GET /api/post?limit=20` answers 20 records.
 */
export async function preparePosts(server, count = 20) {
  for (let index = 0; index < count; index++) {
    const response = await fetch(`${server.url}/api/post`, {
      method: "POST",
      headers: { ...jsonHeaders, ...server.list.headers },
      body: JSON.stringify({
        title: `Post ${index}`,
        body: "A post of the bench, long enough to look like one. ".repeat(4),
        published: true,
      }),
    });
    if (response.status !== 201) throw new Error(`POST /api/post answered ${response.status}: ${await response.text()}`);
  }
  return server;
}

/**
 * `POST refresh` from `connections` callers for `seconds`, as fast as the server answers. A refresh
 * token works once, so each connection signs one of the prepared users in first (before the clock
 * starts: those logins hash) and then carries its own chain, each request spending the refresh
 * token the previous answer gave it (autocannon's per-request context does not outlive a request,
 * hence one autocannon of one connection per chain). No request hashes a password.
 */
export async function hitRefresh(server, { connections = 10, seconds = 3 } = {}) {
  const { emails } = server.login;
  if (emails.length === 0) throw new Error("refresh needs prepared users to sign in");
  const chains = [];
  for (let index = 0; index < connections; index += 4) {
    const batch = Array.from({ length: Math.min(4, connections - index) }, async (_, offset) => {
      const email = emails[(index + offset) % emails.length];
      const response = await post(`${server.url}/api/user/login`, { email, password: PASSWORD });
      chains[index + offset] = (await response.json()).refreshToken;
    });
    await Promise.all(batch);
  }
  // One autocannon per chain, all at once: each request is built from the chain's newest token.
  const cpuBefore = cpuTimeMs(server.pid);
  const runs = await Promise.all(
    chains.map((_, chain) =>
      cannon({
        url: server.url,
        connections: 1,
        duration: seconds,
        requests: [
          {
            method: "POST",
            path: server.refresh.path,
            headers: jsonHeaders,
            setupRequest: (request) => ({ ...request, body: JSON.stringify({ refreshToken: chains[chain] }) }),
            onResponse: (status, body) => {
              if (status === 200) chains[chain] = JSON.parse(body).refreshToken;
            },
          },
        ],
      }),
    ),
  );
  const latencies = runs.flatMap((run) => run.latencies);
  const statuses = {};
  for (const run of runs) for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const ok = runs.reduce((sum, run) => sum + run.ok, 0);
  const duration = Math.max(...runs.map((run) => run.seconds));
  return {
    requestsPerSecond: ok / duration,
    seconds: duration,
    ok,
    statuses,
    other: runs.reduce((sum, run) => sum + run.other, 0),
    p50: latencies.length ? quantile(latencies, 0.5) : Number.POSITIVE_INFINITY,
    p99: latencies.length ? quantile(latencies, 0.99) : Number.POSITIVE_INFINITY,
    serverCpuMsPerRequest: (cpuTimeMs(server.pid) - cpuBefore) / ok,
  };
}

/** Prepares the Better Auth server: one signed-in user for get-session. */
export async function prepareBetterAuth(server) {
  const api = `${server.url}/api/auth`;
  const email = `user-${Date.now()}@bench.test`;
  await post(`${api}/sign-up/email`, { email, password: PASSWORD, name: "Bench User" });
  const token = (await post(`${api}/sign-in/email`, { email, password: PASSWORD })).headers.get("set-auth-token");
  return {
    ...server,
    me: { path: "/api/auth/get-session", headers: { authorization: `Bearer ${token}` } },
    register: { path: "/api/auth/sign-up/email", body: (email) => ({ email, password: PASSWORD, name: "Bench User" }) },
  };
}

/** CPU time (user + system, all threads) the process `pid` has used so far, in ms; Linux only. */
export function cpuTimeMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Runs autocannon and summarizes it. Latencies are taken from each 2xx response as autocannon
 * timed it (fractions of a millisecond kept; its own histogram rounds to whole milliseconds);
 * `statuses` counts every answer by status.
 */
async function cannon(options) {
  const latencies = [];
  const statuses = {};
  const instance = autocannon(options);
  instance.on("response", (_client, status, _bytes, ms) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const result = await instance;
  const ok = result["2xx"];
  return {
    requestsPerSecond: ok / result.duration,
    seconds: result.duration,
    ok,
    statuses,
    other: result.non2xx + result.errors + result.timeouts,
    // None answered within the run: longer than the run.
    p50: latencies.length ? quantile(latencies, 0.5) : Number.POSITIVE_INFINITY,
    p99: latencies.length ? quantile(latencies, 0.99) : Number.POSITIVE_INFINITY,
    max: latencies.length ? quantile(latencies, 1) : Number.POSITIVE_INFINITY,
    latencies,
  };
}

/**
 * `me` (or get-session) from `connections` callers for `seconds`: as fast as the server answers,
 * or at `rate` requests per second in all. `target: "list"` asks for the entity list instead.
 */
export async function hitMe(server, { connections = 10, seconds = 3, rate, target = "me" } = {}) {
  const cpuBefore = cpuTimeMs(server.pid);
  const run = await cannon({
    url: `${server.url}${server[target].path}`,
    headers: server[target].headers,
    connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
  });
  return { ...run, serverCpuMsPerRequest: (cpuTimeMs(server.pid) - cpuBefore) / run.ok };
}

/**
 * A storm of logins (correct passwords, cycling through the prepared users), of registers
 * (fresh emails) or of `me` from `connections` callers for `seconds`. Resolves when it ends.
 */
export async function storm(server, kind, { connections = 16, seconds = 4 } = {}) {
  if (kind === "me") return cannon({ url: `${server.url}${server.me.path}`, headers: server.me.headers, connections, duration: seconds });
  let next = 0;
  const prefix = `storm-${kind}-${process.pid}-${Date.now()}`;
  const body =
    kind === "login"
      ? () => ({ email: server.login.emails[next++ % server.login.emails.length], password: PASSWORD })
      : () => server.register.body(`${prefix}-${next++}@bench.test`);
  return cannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path: server[kind].path,
        headers: jsonHeaders,
        setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }),
      },
    ],
  });
}

/** Logins with right passwords from `connections` callers for `seconds`, with the server's CPU time per login. */
export async function hitLogin(server, { connections = 10, seconds = 3 } = {}) {
  const cpuBefore = cpuTimeMs(server.pid);
  const run = await storm(server, "login", { connections, seconds });
  return { ...run, serverCpuMsPerRequest: (cpuTimeMs(server.pid) - cpuBefore) / run.ok };
}

/** `me` at a fixed rate while a storm runs (started `leadMs` earlier so hashing is saturated). */
export async function meDuringStorm(
  meServer,
  stormServer,
  kind,
  { rate, seconds = 3, leadMs = 750, connections = 4, stormConnections = 16 } = {},
) {
  const stormRun = storm(stormServer, kind, { seconds: seconds + 1, connections: stormConnections });
  await sleep(leadMs);
  const me = await hitMe(meServer, { connections, seconds, rate });
  return { me, storm: await stormRun };
}
