#!/usr/bin/env node
// The JavaScript a first visit of the admin makes the browser fetch: for each page, signed in as the
// first administrator, one fresh navigation with the cache disabled in headless Chromium, and the
// scripts it fetched until the network went quiet: how many, their bytes on the wire (CDP's
// `Network.loadingFinished` encodedDataLength, headers included; the bodies alone as sent, and
// Content-Length where the server gave one) and decoded (what the scripts are once unpacked).
// The app is a production build served as the e2e suites serve it (`startApp` of
// test/support/app-server.ts), on a new SQLite database, or an app already running (`--url`).
//   node bench/first-load.mjs [--app-dir apps/web] [--url BASE] [--paths /admin,/admin/users]
//                             [--runs 3] [--json] [--verbose] [--chromium /usr/bin/chromium]
// --app-dir serves another checkout's build (its server.mjs, .next and domain.yaml), --runs loads each
// page that many times (a new browser context each time), --verbose lists every request on stderr.
// Default pages: /admin, and /admin/records/post and /admin/users when they answer 200.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const WEB = fileURLToPath(new URL("../apps/web/", import.meta.url));
const READY_LINE = /http:\/\/localhost:(\d+)\//;
const ADMIN = { email: "admin@example.com", password: "correct horse battery" };
const WAIT_MS = 120_000;
const OPTIONAL_PATHS = ["/admin/records/post", "/admin/users"];
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

function options() {
  const { values } = parseArgs({
    options: {
      "app-dir": { type: "string", default: WEB },
      url: { type: "string" },
      paths: { type: "string" },
      runs: { type: "string", default: "3" },
      json: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
      chromium: { type: "string", default: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    },
  });
  return { ...values, runs: Number(values.runs), appDir: resolve(values["app-dir"]) };
}

/** `appDir/server.mjs` in production on a free port, a new directory, database and secret (as `startApp` does). */
async function startApp(appDir) {
  const dir = mkdtempSync(join(tmpdir(), "domain-auth-first-load-"));
  copyFileSync(join(appDir, "domain.yaml"), join(dir, "domain.yaml"));
  const child = spawn(process.execPath, [join(appDir, "server.mjs")], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: "0",
      HOSTNAME: "127.0.0.1",
      DOMAIN_FILE: join(dir, "domain.yaml"),
      DATABASE_URL: `file:${join(dir, "app.db")}`,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5000).unref())]);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await readyPort(child);
    return { url: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    child.kill("SIGKILL");
    await stop();
    throw error;
  }
}

/** The port of the server's ready line, within 60 s. */
function readyPort(child) {
  let output = "";
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`server not ready after 60 s:\n${output}`)), 60_000);
    const read = (chunk) => {
      output += chunk;
      const match = READY_LINE.exec(output);
      if (match) {
        clearTimeout(timer);
        done(Number(match[1]));
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** The first administrator (`POST /api/user/setup`); an app already set up answers otherwise and is signed in to as it is. */
async function setUpAdmin(url) {
  const response = await fetch(`${url}/api/user/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (response.status !== 201) process.stderr.write(`setup answered ${response.status}; signing in as ${ADMIN.email}\n`);
}

/**
 * Signs in through the `/login` form, as the e2e suites do, once the page has hydrated (its button
 * is disabled until then), and waits for the profile page.
 */
async function signIn(context, url) {
  const page = await context.newPage();
  await page.goto(`${url}/login`);
  const button = page.getByRole("main").getByRole("button", { name: "Sign in", exact: true });
  await button.and(page.locator(":enabled")).waitFor();
  await page.getByLabel("Email").filter({ visible: true }).fill(ADMIN.email);
  await page.getByLabel("Password", { exact: true }).filter({ visible: true }).fill(ADMIN.password);
  await button.click();
  await page.waitForURL("**/profile");
  await page.close();
}

/** /admin, and those of {@link OPTIONAL_PATHS} that answer 200 to the signed-in session. */
async function pathsToLoad(context, url) {
  const paths = ["/admin"];
  for (const path of OPTIONAL_PATHS) {
    const response = await context.request.get(`${url}${path}`, { maxRedirects: 0 });
    if (response.status() === 200) paths.push(path);
  }
  return paths;
}

/**
 * Records every request of the tab through CDP: when it was sent (against the page's load event),
 * its type, URL and headers, its bytes on the wire and decoded.
 */
async function recordNetwork(page) {
  const cdp = await page.context().newCDPSession(page);
  const requests = new Map();
  const timing = { loadedAt: Number.POSITIVE_INFINITY };
  const of = (id) => requests.get(id) ?? requests.set(id, { decoded: 0 }).get(id);
  cdp.on("Page.loadEventFired", ({ timestamp }) => {
    timing.loadedAt = Math.min(timing.loadedAt, timestamp);
  });
  cdp.on("Network.requestWillBeSent", ({ requestId, timestamp }) => {
    of(requestId).sentAt = timestamp;
  });
  cdp.on("Network.responseReceived", ({ requestId, type, response }) => {
    Object.assign(of(requestId), { type, url: response.url, headers: lowerKeys(response.headers) });
  });
  cdp.on("Network.dataReceived", ({ requestId, dataLength }) => {
    of(requestId).decoded += dataLength;
  });
  cdp.on("Network.responseReceivedExtraInfo", ({ requestId, headersText }) => {
    if (headersText) of(requestId).headerBytes = Buffer.byteLength(headersText);
  });
  cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
    Object.assign(of(requestId), { wire: encodedDataLength, finished: true });
  });
  await Promise.all([cdp.send("Page.enable"), cdp.send("Network.enable")]);
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  return { requests, timing };
}

/** Every request of one load on stderr: type, before or after the load event, URL, bytes on the wire. */
function logRequests(path, requests, loadedAt) {
  process.stderr.write(`${path}:\n`);
  for (const r of requests)
    process.stderr.write(`  ${r.type} ${r.sentAt > loadedAt ? "after" : "before"} load ${r.url} ${r.wire ?? "–"}\n`);
}

function lowerKeys(headers) {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** One fresh navigation to `path` in a new tab, until the network is quiet; the scripts it fetched. */
async function loadPage(context, url, path, verbose) {
  const page = await context.newPage();
  try {
    const { requests, timing } = await recordNetwork(page);
    const response = await page.goto(`${url}${path}`, { waitUntil: "load" });
    if (response?.status() !== 200) throw new Error(`${path} answered ${response?.status()}`);
    await page.waitForLoadState("networkidle");
    if (verbose) logRequests(path, requests.values(), timing.loadedAt);
    return summarize(path, [...requests.values()], timing.loadedAt);
  } finally {
    await page.close();
  }
}

/**
 * Sums the scripts among the recorded responses, and apart those requested after the load event
 * (chunks the page or the router's prefetches loaded later).
 */
function summarize(path, responses, loadedAt) {
  const scripts = responses.filter((r) => r.finished && r.type === "Script");
  const sum = (list, pick) => list.reduce((total, script) => total + pick(script), 0);
  const lengths = scripts.map((script) => Number(script.headers["content-length"] ?? Number.NaN));
  const late = scripts.filter((script) => script.sentAt > loadedAt);
  return {
    path,
    scripts: scripts.length,
    wireBytes: sum(scripts, (script) => script.wire),
    bodyBytes: sum(scripts, (script) => script.wire - (script.headerBytes ?? 0)),
    contentLengthBytes: lengths.every(Number.isFinite) ? sum(lengths, (length) => length) : null,
    decodedBytes: sum(scripts, (script) => script.decoded),
    afterLoad: { scripts: late.length, wireBytes: sum(late, (s) => s.wire), decodedBytes: sum(late, (s) => s.decoded) },
    encodings: [...new Set(scripts.map((script) => script.headers["content-encoding"] ?? "identity"))],
    files: scripts.map((script) => ({
      url: new URL(script.url).pathname,
      wire: script.wire,
      decoded: script.decoded,
      encoding: script.headers["content-encoding"] ?? "identity",
      afterLoad: script.sentAt > loadedAt,
    })),
  };
}

/** The run of median bytes on the wire, and whether every run fetched the same scripts and bytes. */
function medianOf(path, runs) {
  const figures = ({ scripts, wireBytes, bodyBytes, decodedBytes, afterLoad }) =>
    JSON.stringify({ scripts, wireBytes, bodyBytes, decodedBytes, afterLoad });
  const sorted = [...runs].sort((a, b) => a.wireBytes - b.wireBytes);
  const identical = runs.every((run) => figures(run) === figures(runs[0]));
  const perRun = runs.map(({ files, ...run }) => run);
  return { ...sorted[Math.floor(sorted.length / 2)], path, runs: runs.length, identical, perRun };
}

/** Every path, `runs` times over, each run a new browser context signed in anew (nothing cached anywhere). */
async function measure(browser, url, settings) {
  const runs = new Map();
  let paths = settings.paths?.split(",").map((path) => path.trim());
  for (let run = 0; run < settings.runs; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Generous: the machine is shared, and a slow first load is still measured the same.
    context.setDefaultTimeout(WAIT_MS);
    try {
      await signIn(context, url);
      paths ??= await pathsToLoad(context, url);
      for (const path of paths) runs.set(path, [...(runs.get(path) ?? []), await loadPage(context, url, path, settings.verbose)]);
    } finally {
      await context.close();
    }
  }
  return withOwn([...runs].map(([path, figures]) => medianOf(path, figures)));
}

/** Adds to each page what it loads that not every page measured loads (its own scripts), when there are several. */
function withOwn(results) {
  const loads = (result, url) => result.files.some((file) => file.url === url);
  const everywhere = new Set(results[0].files.map((file) => file.url).filter((url) => results.every((r) => loads(r, url))));
  return results.map((result) => {
    const own = result.files.filter((file) => !everywhere.has(file.url));
    const sum = (pick) => own.reduce((total, file) => total + pick(file), 0);
    const figures = { scripts: own.length, wireBytes: sum((file) => file.wire), decodedBytes: sum((file) => file.decoded) };
    return { ...result, own: results.length > 1 ? figures : null };
  });
}

const bytes = (count) => `${(count / 1024).toFixed(1)} KiB (${count.toLocaleString("en")} B)`;

/** The figures as a Markdown table. */
function table(results) {
  const some = (figures) => (figures.scripts ? `${figures.scripts}: ${bytes(figures.wireBytes)}, ${bytes(figures.decodedBytes)}` : "none");
  const rows = results.map((r) => [
    `\`${r.path}\``,
    r.scripts,
    bytes(r.wireBytes),
    bytes(r.decodedBytes),
    r.own ? some(r.own) : "–",
    some(r.afterLoad),
    r.encodings.join(", "),
    r.identical ? `${r.runs}, identical` : `${r.runs}, median`,
  ]);
  const head = [
    "Page",
    "Scripts",
    "On the wire",
    "Decoded",
    "Not loaded by every page: scripts, wire, decoded",
    "Requested after the load event",
    "Content-Encoding",
    "Runs",
  ];
  return [head, head.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

async function main() {
  const settings = options();
  const app = settings.url ? { url: settings.url.replace(/\/$/, ""), stop: async () => {} } : await startApp(settings.appDir);
  let browser;
  try {
    await setUpAdmin(app.url);
    browser = await chromium.launch({ executablePath: settings.chromium, args: CHROMIUM_ARGS });
    const results = await measure(browser, app.url, settings);
    console.log(
      settings.json ? JSON.stringify({ url: app.url, appDir: settings.url ? null : settings.appDir, results }, null, 2) : table(results),
    );
  } finally {
    await browser?.close();
    await app.stop();
  }
}

await main();
