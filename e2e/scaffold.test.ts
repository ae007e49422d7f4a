import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyOfNextProject } from "../apps/wizard/test/create-next-app.js";
import { type RunningApp, startApp } from "../test/support/app-server.js";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { ADMIN, api, fillAccountForm, profileValue } from "./support/flows.js";
import { type PackedPackages, packPackages } from "./support/packed.js";

// The front door, as a user walks through it: the published wizard (packed, run with npx) adds
// domain-auth to a project create-next-app has just made, or makes a new app in an empty folder, and
// the project's own dev server, lint, type check, build and production server work with no hand edit.

let work: string;
let packed: PackedPackages;
let browser: Browser;
const running: (RunningApp | ChildProcess)[] = [];
const made: string[] = [];
/** The node_modules the create-next-app project installed, reused by the next install. */
let installedModules: string | undefined;

const REPOSITORY_MODULES = fileURLToPath(new URL("../node_modules/", import.meta.url));
const { CI: _ci, ...environment } = process.env;
const env: NodeJS.ProcessEnv = {
  ...environment,
  NEXT_TELEMETRY_DISABLED: "1",
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};

/** Runs a command to its end; throws with its output when it fails. */
function run(cwd: string, command: string, args: readonly string[], timeout = 300_000): string {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout, maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}:\n${output}`);
  return output;
}

/** The published wizard, as `npx create-domain-auth` runs it. */
function wizard(cwd: string, ...args: string[]): string {
  return run(cwd, "npx", ["--yes", `--package=${packed.wizard}`, "create-domain-auth", ...args]);
}

/**
 * create-next-app's root layout loads Geist from Google Fonts, which cannot be downloaded here: its
 * import is pointed at a local stand-in with the same shape; the rest of the file stays the user's.
 */
async function withoutGoogleFonts(project: string, layoutFile = "app/layout.tsx"): Promise<void> {
  const layout = join(project, layoutFile);
  const text = await readFile(layout, "utf8");
  expect(text).toContain('from "next/font/google";');
  await writeFile(layout, text.replace('from "next/font/google";', 'from "./fonts";'));
  const standIn = 'export const Geist = (options: FontOptions) => ({ ...options, className: "" });\nexport const Geist_Mono = Geist;\n';
  await writeFile(
    join(dirname(layout), layoutFile.endsWith(".js") ? "fonts.js" : "fonts.ts"),
    layoutFile.endsWith(".js")
      ? standIn.replace("options: FontOptions", "options")
      : `type FontOptions = { variable: string; subsets: string[] };\n${standIn}`,
  );
}

/**
 * Puts this repository's better-sqlite3, compiled by its own install, into the project's node_modules
 * before the project installs: npm keeps a package already there that satisfies the range, so the
 * native module is not compiled again from source (no prebuilt binary can be downloaded here). When the
 * versions disagree npm replaces it and compiles, which is slower but the same. The packages it loads
 * its binary with come along: npm leaves out the dependencies of a package it found in place.
 */
function seedCompiledSqlite(project: string): void {
  run(project, "mkdir", ["-p", "node_modules"]);
  const seeds = ["better-sqlite3", "bindings", "file-uri-to-path"].map((name) => join(REPOSITORY_MODULES, name));
  run(project, "cp", ["-a", ...seeds, join(project, "node_modules/")]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs `npm run dev` until its pages answer; returns what they answered, then stops it. */
async function devServerAnswers(project: string, paths: readonly string[]): Promise<{ statuses: Record<string, number>; output: string }> {
  const port = await freePort();
  const child = spawn("npm", ["run", "dev", "--", "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: project,
    env: { ...env, NODE_ENV: "development" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  try {
    const deadline = Date.now() + 120_000;
    while (!/Ready in/.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`next dev did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const statuses: Record<string, number> = {};
    for (const path of paths)
      statuses[path] = (await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(120_000) })).status;
    return { statuses, output };
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
  }
}

/** The errors and warnings the project's own ESLint reports, by file. */
function lintProblems(project: string): { file: string; rule: string | null; severity: number }[] {
  const result = spawnSync("npx", ["eslint", "--format", "json", "."], {
    cwd: project,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const reports = JSON.parse(result.stdout) as { filePath: string; messages: { ruleId: string | null; severity: number }[] }[];
  return reports.flatMap((report) =>
    report.messages.map((message) => ({
      file: report.filePath.slice(project.length + 1),
      rule: message.ruleId,
      severity: message.severity,
    })),
  );
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "domain-auth-scaffold-"));
  packed = packPackages(work);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const server of running) {
    if ("stop" in server) await server.stop();
    else if (server.exitCode === null && server.pid) process.kill(-server.pid, "SIGKILL");
  }
  await browser?.close();
  for (const dir of [work, ...made]) await rm(dir, { recursive: true, force: true });
});

describe("npx create-domain-auth in a project create-next-app made (cacheComponents on, Tailwind, ESLint)", () => {
  let project: string;
  let mine: Record<string, string>;

  beforeAll(async () => {
    project = await copyOfNextProject("default");
    made.push(dirname(project));
    await withoutGoogleFonts(project);
    mine = {};
    for (const file of ["app/layout.tsx", "app/page.tsx", "app/globals.css", "next.config.ts"]) {
      mine[file] = await readFile(join(project, file), "utf8");
    }
    wizard(project, "--yes", "--no-install");
    seedCompiledSqlite(project);
    // The version in the tarball is not in the registry: install it the way an unpublished package is.
    run(project, "npm", ["install", packed.core], 900_000);
    installedModules = join(project, "node_modules");
  }, 600_000);

  it("keeps the user's files, and a rerun writes nothing", { timeout: 120_000 }, async () => {
    for (const file of ["app/layout.tsx", "app/page.tsx", "app/globals.css"]) {
      expect(await readFile(join(project, file), "utf8"), file).toBe(mine[file]);
    }
    const config = await readFile(join(project, "next.config.ts"), "utf8");
    expect(config).toContain("cacheComponents: true");
    expect(config).toContain('serverExternalPackages: ["@domain-auth/core"]');
    expect(wizard(project, "--yes", "--no-install")).toContain("nothing to write");
  });

  it("passes the project's own ESLint and tsc --noEmit", { timeout: 300_000 }, () => {
    const problems = lintProblems(project);
    expect(problems.filter((problem) => problem.severity === 2)).toEqual([]);
    expect(problems.filter((problem) => /domain-auth|server\.mjs|proxy\.ts|app\/api\//.test(problem.file))).toEqual([]);
    run(project, "npx", ["tsc", "--noEmit"]);
  });

  it("serves the auth pages and the API under npm run dev", { timeout: 300_000 }, async () => {
    const { statuses, output } = await devServerAnswers(project, ["/setup", "/login", "/api/user/setup", "/"]);
    expect(statuses, output).toEqual({ "/setup": 200, "/login": 200, "/api/user/setup": 200, "/": 200 });
    expect(output).not.toMatch(/Error:|not compatible with nextConfig/);
  });

  it("builds (with Next.js's type check) and runs the first-run flow on npm start's server in Chromium", { timeout: 600_000 }, async () => {
    run(project, "npm", ["run", "build"]);
    expect(JSON.parse(await readFile(join(project, "package.json"), "utf8")).scripts.start).toBe("node server.mjs");
    const app = await startApp({ app: project, domain: await readFile(join(project, "domain.yaml"), "utf8") });
    running.push(app);

    const home = await fetch(`${app.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-security-policy")).toBeNull();
    expect(await home.text()).toContain("To get started, edit the");

    const page = await openTab(browser, app.url);
    const foreign: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(app.url)) foreign.push(request.url());
    });
    const scriptErrors: string[] = [];
    page.on("pageerror", (error) => scriptErrors.push(error.message));
    const setup = await page.goto("/setup");
    expect(setup?.headers()["content-security-policy"]).toContain("'nonce-");
    await fillAccountForm(page, ADMIN);
    await page.getByRole("button", { name: "Create administrator" }).click();
    await page.waitForURL("**/profile");
    expect(await profileValue(page, "Email")).toBe(ADMIN.email);
    // The auth pages' own styles hold under Tailwind's reset: the button keeps its colour and padding.
    const button = page.getByRole("button", { name: "Sign out" });
    const style = await button.evaluate((element) => {
      const computed = getComputedStyle(element);
      return { background: computed.backgroundColor, padding: computed.paddingLeft };
    });
    expect(style.background).not.toBe("rgba(0, 0, 0, 0)");
    expect(style.padding).not.toBe("0px");
    await saveScreenshot(page, "scaffold-create-next-app-profile");
    // The user's home page keeps Tailwind's styles: the auth pages' stylesheet does not leak into it.
    await page.goto("/");
    expect(await page.evaluate(() => getComputedStyle(document.body).display)).toBe("flex");
    expect(scriptErrors).toEqual([]);
    expect(foreign).toEqual([]);

    const signedIn = await api(app.url, "/user/login", { method: "POST", body: { email: ADMIN.email, password: ADMIN.password } });
    expect(signedIn.status).toBe(200);
  });
});

describe("npx create-domain-auth in a JavaScript project create-next-app made (--js)", () => {
  it("adds TypeScript: the project's ESLint passes, it builds and its production server serves the pages and the API", {
    timeout: 600_000,
  }, async () => {
    const project = await copyOfNextProject("js");
    made.push(dirname(project));
    await withoutGoogleFonts(project, "app/layout.js");
    const userFiles = ["jsconfig.json", "app/layout.js", "app/page.js", "app/globals.css", "eslint.config.mjs"];
    const mine = await Promise.all(userFiles.map((file) => readFile(join(project, file), "utf8")));
    wizard(project, "--yes", "--no-install");
    expect(await Promise.all(userFiles.map((file) => readFile(join(project, file), "utf8")))).toEqual(mine);
    const tsconfig = await readFile(join(project, "tsconfig.json"), "utf8");
    expect(JSON.parse(tsconfig).extends).toBe("./jsconfig.json");
    // The TypeScript project above installed the same packages: npm keeps them and adds what is missing.
    if (installedModules) await cp(installedModules, join(project, "node_modules"), { recursive: true, verbatimSymlinks: true });
    else seedCompiledSqlite(project);
    run(project, "npm", ["install", packed.core], 900_000);

    expect(lintProblems(project).filter((problem) => problem.severity === 2)).toEqual([]);
    run(project, "npm", ["run", "build"]);
    // Next.js leaves a tsconfig.json that extends another as it is: a rerun of the wizard finds it unchanged.
    expect(await readFile(join(project, "tsconfig.json"), "utf8")).toBe(tsconfig);

    const app = await startApp({ app: project, domain: await readFile(join(project, "domain.yaml"), "utf8") });
    running.push(app);
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    const login = await fetch(`${app.url}/login`);
    expect(login.status).toBe(200);
    expect(login.headers.get("content-security-policy")).toContain("'nonce-");
    const setup = await api(app.url, "/user/setup", { method: "POST", body: { email: ADMIN.email, password: ADMIN.password } });
    expect(setup.status).toBe(201);
    expect((await api(app.url, "/user/me", { token: setup.body.token as string })).body).toMatchObject({ user: { email: ADMIN.email } });
  });
});

describe("npx create-domain-auth my-app in an empty folder", () => {
  it("creates an app that builds and runs: home page, first-run page and the API", { timeout: 600_000 }, async () => {
    const parent = await mkdtemp(join(work, "empty-"));
    wizard(parent, "my-app", "--yes", "--no-install");
    const project = join(parent, "my-app");
    const manifest = JSON.parse(await readFile(join(project, "package.json"), "utf8"));
    expect(manifest.scripts).toMatchObject({ dev: "next dev", build: "next build", start: "node server.mjs" });
    // Starting from the modules installed above, npm keeps what matches (better-sqlite3 compiles once).
    if (installedModules) await cp(installedModules, join(project, "node_modules"), { recursive: true, verbatimSymlinks: true });
    else seedCompiledSqlite(project);
    run(project, "npm", ["install", packed.core], 900_000);
    run(project, "npm", ["run", "build"]);

    const app = await startApp({ app: project, domain: await readFile(join(project, "domain.yaml"), "utf8") });
    running.push(app);
    const home = await fetch(`${app.url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("My app");
    expect((await fetch(`${app.url}/setup`)).status).toBe(200);
    const setup = await api(app.url, "/user/setup", { method: "POST", body: { email: ADMIN.email, password: ADMIN.password } });
    expect(setup.status).toBe(201);
    expect((await api(app.url, "/user/me", { token: setup.body.token as string })).body).toMatchObject({ user: { email: ADMIN.email } });
  });
});
