import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { startGitHub } from "@domain-auth/test-support/github-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyOfNextProject } from "../apps/wizard/test/create-next-app.js";
import { launchBrowser, openTab, saveScreenshot } from "./support/browser.js";
import { ADMIN, api, fillAccountForm, profileValue, signOut } from "./support/flows.js";
import { addOwnFiles, expectOwnPagesWork, expectRenewalPastTokenLifetime } from "./support/own-pages.js";
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

const REPOSITORY = fileURLToPath(new URL("../", import.meta.url));
const REPOSITORY_MODULES = join(REPOSITORY, "node_modules");
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
async function withoutGoogleFonts(project: string, appDir = "app", script: "tsx" | "js" = "tsx"): Promise<void> {
  const layout = join(project, appDir, `layout.${script}`);
  const text = await readFile(layout, "utf8");
  expect(text).toContain('from "next/font/google";');
  await writeFile(layout, text.replace('from "next/font/google";', 'from "./fonts";'));
  const standIn =
    'export const Geist = (options: FontOptions) => ({ variable: options.variable, className: "" });\nexport const Geist_Mono = Geist;\n';
  await writeFile(
    join(project, appDir, script === "js" ? "fonts.js" : "fonts.ts"),
    script === "js"
      ? standIn.replace("options: FontOptions", "options")
      : `type FontOptions = { variable: string; subsets: string[] };\n${standIn}`,
  );
}

/**
 * better-sqlite3 has no prebuilt binary to download here, so each install would compile it from source
 * (minutes). prebuild-install's documented local prebuilds (`npm_config_better_sqlite3_local_prebuilds`)
 * serve it the binary this repository's own install compiled, packed as a prebuilt one; when the project
 * gets another version, the name does not match and it compiles, which is slower but the same.
 */
function localSqlitePrebuilds(folder: string): string {
  const module = join(REPOSITORY_MODULES, "better-sqlite3");
  const { version } = JSON.parse(readFileSync(join(module, "package.json"), "utf8")) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  run(module, "tar", ["czf", join(folder, name), "build/Release/better_sqlite3.node"]);
  return folder;
}

/** Stops a process started `detached` with everything it started; nothing when it is already gone. */
function stopGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): void {
  if (!child.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone with its group
  }
}

/**
 * The status of `url`, retrying while the connection fails: `next dev` restarts itself when it first
 * writes the project's tsconfig.json, dropping the requests it was compiling for.
 */
async function statusOnceServing(url: string, server: ChildProcess, output: () => string): Promise<number> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      return (await fetch(url, { signal: AbortSignal.timeout(120_000) })).status;
    } catch (error) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`${url} never answered (${String(error)}):\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/**
 * Resolves with the first match of `pattern` in what `child` prints, as soon as it is printed; rejects
 * when the child exits first or nothing matches within `timeoutMs` (a hang, not a slow machine).
 */
function untilPrinted(child: ChildProcess, output: () => string, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(output());
      if (!match) return;
      done();
      resolve(match);
    };
    const exited = () => {
      done();
      reject(new Error(`the server exited before printing ${pattern}:\n${output()}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`nothing matched ${pattern} within ${timeoutMs / 1000} s:\n${output()}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off("data", check);
      child.stderr?.off("data", check);
      child.off("exit", exited);
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.once("exit", exited);
    check();
  });
}

/**
 * Runs `npm run dev` on a port the system picks (`--port 0`: none chosen beforehand that another process
 * could take in between) until its pages answer; returns what they answered, then stops it.
 */
async function devServerAnswers(project: string, paths: readonly string[]): Promise<{ statuses: Record<string, number>; output: string }> {
  const child = spawn("npm", ["run", "dev", "--", "--port", "0", "--hostname", "127.0.0.1"], {
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
    // next dev prints the address it listens on, then "Ready in"; a restart of its own keeps the port.
    const [, port] = await untilPrinted(child, () => output, /Local:\s+http:\/\/127\.0\.0\.1:(\d+)/, 120_000);
    await untilPrinted(child, () => output, /Ready in/, 120_000);
    const statuses: Record<string, number> = {};
    for (const path of paths) statuses[path] = await statusOnceServing(`http://127.0.0.1:${port}${path}`, child, () => output);
    return { statuses, output };
  } finally {
    stopGroup(child);
  }
}

/** The errors and warnings the project's own ESLint reports, by file. */
function lintProblems(project: string): { file: string; rule: string | null; severity: number; message: string }[] {
  const result = spawnSync("npx", ["eslint", "--format", "json", "."], {
    cwd: project,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const reports = JSON.parse(result.stdout) as {
    filePath: string;
    messages: { ruleId: string | null; severity: number; message: string }[];
  }[];
  return reports.flatMap((report) =>
    report.messages.map((message) => ({
      file: report.filePath.slice(project.length + 1),
      rule: message.ruleId,
      severity: message.severity,
      message: message.message,
    })),
  );
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "domain-auth-scaffold-"));
  packed = packPackages(work);
  env.npm_config_better_sqlite3_local_prebuilds = localSqlitePrebuilds(await mkdtemp(join(work, "prebuilds-")));
  browser = await launchBrowser();
}, 120_000);

// Removing the projects (each with its own node_modules and build) takes minutes on a loaded machine.
afterAll(async () => {
  await Promise.all(running.map((server) => ("stop" in server ? server.stop() : stopGroup(server, "SIGKILL"))));
  await browser?.close();
  await Promise.all([work, ...made].map((dir) => rm(dir, { recursive: true, force: true })));
}, 300_000);

/** The README's fenced code block that starts with `firstLine`: what a user copies. */
async function readmeBlock(firstLine: string): Promise<string> {
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const blocks = [...readme.matchAll(/```\w*\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  const block = blocks.find((text) => text.startsWith(`${firstLine}\n`));
  if (!block) throw new Error(`README.md has no code block starting with ${firstLine}`);
  return block;
}

/**
 * Lists the project's own pages in the scaffolded proxy.ts with the README's line (the dashboard),
 * and the admins' page for its role.
 */
async function protectInProxy(project: string, file: string): Promise<void> {
  const [, line = ""] = (await readmeBlock("// proxy.ts")).split("\n");
  expect(line).toMatch(/^const PROTECTED_PAGES: ProtectedPage\[\] = \[\{ path: "\/dashboard" \}\];$/);
  const proxy = await readFile(join(project, file), "utf8");
  const empty = "const PROTECTED_PAGES: ProtectedPage[] = [];";
  expect(proxy).toContain(empty);
  await writeFile(join(project, file), proxy.replace(empty, line.replace("}];", '}, { path: "/admins-only", roles: ["Admin"] }];')));
}

/** A copy of a create-next-app project, fonts made local, the user's files as they were. */
async function userProject(shape: "default" | "src" | "js"): Promise<{ project: string; mine: Record<string, string> }> {
  const project = await copyOfNextProject(shape);
  made.push(dirname(project));
  const appDir = shape === "src" ? "src/app" : "app";
  const script = shape === "js" ? "js" : "tsx";
  await withoutGoogleFonts(project, appDir, script);
  const mine: Record<string, string> = {};
  for (const file of [`layout.${script}`, `page.${script}`, "globals.css"])
    mine[`${appDir}/${file}`] = await readFile(join(project, appDir, file), "utf8");
  for (const file of ["jsconfig.json", "eslint.config.mjs"].filter(() => shape === "js"))
    mine[file] = await readFile(join(project, file), "utf8");
  return { project, mine };
}

/**
 * Installs the project's dependencies and the packed core (its version is not in the registry: it is
 * installed the way an unpublished package is). Later projects start from the first one's modules.
 */
async function install(project: string): Promise<void> {
  if (installedModules) await cp(installedModules, join(project, "node_modules"), { recursive: true, verbatimSymlinks: true });
  run(project, "npm", ["install", packed.core], 900_000);
  installedModules ??= join(project, "node_modules");
}

async function expectUnchanged(project: string, mine: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(mine)) expect(await readFile(join(project, file), "utf8"), file).toBe(content);
}

/** ESLint as the project configures it: no error anywhere, no warning in a scaffolded file. */
function expectLintClean(project: string): void {
  const problems = lintProblems(project);
  expect(problems.filter((problem) => problem.severity === 2)).toEqual([]);
  expect(problems.filter((problem) => /domain-auth|server\.mjs|proxy\.ts|app\/api\//.test(problem.file))).toEqual([]);
}

/**
 * `npm run build`, then the production server `npm start` runs (and says it hashes with the native bcrypt): setup → sign-out → sign-in on /login →
 * profile in Chromium, then login → me over the API; the auth pages carry their nonce policy, nothing
 * is loaded from another origin and no script fails.
 */
async function expectBuildAndFirstRun(
  project: string,
  screenshot: string,
  env: Readonly<Record<string, string>> = {},
): Promise<RunningApp> {
  run(project, "npm", ["run", "build"], 600_000);
  const app = await startApp({ app: project, domain: await readFile(join(project, "domain.yaml"), "utf8"), env });
  running.push(app);
  // The core's optional dependency came with it, and its prebuilt binary loads: no compiler was needed.
  expect(app.output()).toContain("domain-auth: passwords are hashed with the native bcrypt\n");
  const page = await openTab(browser, app.url);
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(app.url)) foreign.push(request.url());
  });
  const scriptErrors: string[] = [];
  page.on("pageerror", (error) => scriptErrors.push(error.message));
  // Sign-in first, as a visitor would: it leads to /setup, and the router must not take the way back there after sign-out.
  const login = await page.goto("/login");
  expect(login?.headers()["content-security-policy"]).toContain("'nonce-");
  await page.waitForURL("**/setup");
  await fillAccountForm(page, ADMIN);
  await page.getByRole("main").getByRole("button", { name: "Create administrator" }).click();
  await page.waitForURL("**/profile");
  await signOut(page);
  await fillAccountForm(page, { email: ADMIN.email, password: ADMIN.password });
  await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("**/profile");
  expect(await profileValue(page, ADMIN.email, "Email")).toBe(ADMIN.email);
  await saveScreenshot(page, screenshot);
  expect(scriptErrors).toEqual([]);
  expect(foreign).toEqual([]);
  await page.context().close();

  const signedIn = await api(app.url, "/user/login", { method: "POST", body: { email: ADMIN.email, password: ADMIN.password } });
  expect(signedIn.status).toBe(200);
  expect((await api(app.url, "/user/me", { token: signedIn.body.token as string })).body).toMatchObject({ user: { email: ADMIN.email } });
  return app;
}

describe("npx create-domain-auth in a project create-next-app made with its defaults (cacheComponents on)", () => {
  let project: string;
  let mine: Record<string, string>;

  beforeAll(async () => {
    ({ project, mine } = await userProject("default"));
    // A route of the user's own under /api: it stays theirs under npm start.
    await mkdir(join(project, "app/api/hello"), { recursive: true });
    mine["app/api/hello/route.ts"] = 'export function GET() {\n  return Response.json({ hello: "world" });\n}\n';
    await writeFile(join(project, "app/api/hello/route.ts"), mine["app/api/hello/route.ts"]);
    // Pages and a route handler of the user's own that ask who is signed in (docs/web.md): the
    // dashboard exactly as the README shows it, listed in proxy.ts as the README says.
    Object.assign(mine, await addOwnFiles(project, "app", true, await readmeBlock("// app/dashboard/page.tsx")));
    wizard(project, "--yes", "--no-install");
    await protectInProxy(project, "proxy.ts");
    await install(project);
  }, 900_000);

  it("keeps the user's files, edits next.config, and a rerun writes nothing", { timeout: 120_000 }, async () => {
    await expectUnchanged(project, mine);
    const config = await readFile(join(project, "next.config.ts"), "utf8");
    expect(config).toContain("cacheComponents: true");
    expect(config).toContain('serverExternalPackages: ["@domain-auth/core"]');
    expect(JSON.parse(await readFile(join(project, "package.json"), "utf8")).scripts.start).toBe("node server.mjs");
    expect(wizard(project, "--yes", "--no-install")).toContain("nothing to write");
  });

  it("passes the project's own ESLint and tsc, its own pages using the session helpers included", { timeout: 300_000 }, () => {
    expectLintClean(project);
    // The route types (LayoutProps, …) Next.js generates, then the project's own type check.
    run(project, "npx", ["next", "typegen"]);
    run(project, "npx", ["tsc", "--noEmit"]);
  });

  it("serves the auth pages and the API under npm run dev", { timeout: 300_000 }, async () => {
    const { statuses, output } = await devServerAnswers(project, ["/setup", "/api/user/setup", "/"]);
    expect(statuses, output).toEqual({ "/setup": 200, "/api/user/setup": 200, "/": 200 });
    expect(output).not.toMatch(/Error:|not compatible with nextConfig/);
  });

  it("builds, and npm start serves the first run in Chromium, the user's home page keeping its own styles", {
    timeout: 900_000,
  }, async () => {
    const app = await expectBuildAndFirstRun(project, "scaffold-create-next-app-profile");
    const hello = await fetch(`${app.url}/api/hello`);
    expect(await hello.json()).toEqual({ hello: "world" });
    // The domain's API is answered by server.mjs before Next.js (no Next.js Vary), the user's route by Next.js.
    expect((await fetch(`${app.url}/api/user/setup`)).headers.get("vary")).toBeNull();
    expect(hello.headers.get("vary")).toContain("rsc");
    const home = await fetch(`${app.url}/`);
    expect(home.headers.get("content-security-policy")).toBeNull();
    expect(await home.text()).toContain("To get started, edit the");
    const page = await openTab(browser, app.url);
    await page.goto("/");
    // Tailwind's classes on the user's body still apply; the auth pages' stylesheet does not reach them.
    expect(await page.evaluate(() => getComputedStyle(document.body).display)).toBe("flex");
    await page.goto("/login");
    // The auth pages' own styles hold under Tailwind's reset: the button keeps its colour and padding.
    const style = await page
      .getByRole("main")
      .getByRole("button", { name: "Sign in", exact: true })
      .evaluate((element) => {
        const computed = getComputedStyle(element);
        return { background: computed.backgroundColor, padding: computed.paddingLeft };
      });
    expect(style.background).not.toBe("rgba(0, 0, 0, 0)");
    expect(style.padding).not.toBe("0px");
    await page.context().close();
    await expectOwnPagesWork(browser, app, ADMIN, { streamsRoleCheck: true, proxyProtects: true });
    // The same build on a server whose access tokens live 5 seconds: long enough that a page the proxy
    // let through renders before its token expires on a loaded machine, short enough to wait out.
    const shortLived = await startApp({
      app: project,
      domain: await readFile(join(project, "domain.yaml"), "utf8"),
      env: { AUTH_TOKEN_TTL: "5" },
    });
    running.push(shortLived);
    await expectRenewalPastTokenLifetime(browser, shortLived, ADMIN, 5);
  });
});

describe("npx create-domain-auth in the same project with cacheComponents off", () => {
  let project: string;

  beforeAll(async () => {
    ({ project } = await userProject("default"));
    const config = join(project, "next.config.ts");
    const text = await readFile(config, "utf8");
    // As a user turns it off: partialPrefetching goes with it (Next.js refuses it without cacheComponents).
    const off = text.replace(/^ {2}cacheComponents: true,\n/m, "").replace(/^ {2}partialPrefetching: true,\n/m, "");
    expect(off).not.toMatch(/cacheComponents|partialPrefetching/);
    await writeFile(config, off);
    await addOwnFiles(project, "app", false);
    wizard(project, "--yes", "--no-install");
    await install(project);
  }, 900_000);

  it("gets the plain auth layout, serves under npm run dev, builds, and npm start serves the first run", { timeout: 900_000 }, async () => {
    expect(await readFile(join(project, "app/(domain-auth)/layout.tsx"), "utf8")).not.toContain("instant");
    const { statuses, output } = await devServerAnswers(project, ["/setup", "/api/user/setup"]);
    expect(statuses, output).toEqual({ "/setup": 200, "/api/user/setup": 200 });
    const app = await expectBuildAndFirstRun(project, "scaffold-cache-components-off-profile");
    await expectOwnPagesWork(browser, app, ADMIN, { streamsRoleCheck: false, proxyProtects: false });
  });
});

describe("npx create-domain-auth in a create-next-app --src-dir project, with GitHub sign-in", () => {
  it("scaffolds under src/, passes ESLint, builds, npm start serves the first run, and a person signs in with GitHub", {
    timeout: 900_000,
  }, async () => {
    const { project, mine } = await userProject("src");
    const output = wizard(project, "--yes", "--no-install", "--providers", "github");
    expect(output).toContain("http://localhost:3000/api/user/oauth/github/callback");
    await expectUnchanged(project, mine);
    expect(await readFile(join(project, "src/app/(domain-auth)/layout.tsx"), "utf8")).toContain("instant = false");
    expect(await readFile(join(project, "domain.yaml"), "utf8")).toMatch(/providers:[\s\S]*github: \{ type: github \}/);
    expect(await readFile(join(project, ".env.local"), "utf8")).toMatch(/^AUTH_PROVIDER_GITHUB_CLIENT_SECRET=$/m);
    await install(project);
    expectLintClean(project);
    // With a provider, production needs APP_URL (the callback URL) and the client's variables: the first run gets placeholders.
    const port = await freePort();
    await expectBuildAndFirstRun(project, "scaffold-src-dir-profile", {
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      AUTH_PROVIDER_GITHUB_CLIENT_ID: "placeholder",
      AUTH_PROVIDER_GITHUB_CLIENT_SECRET: "placeholder",
    });
    await expectGitHubSignIn(project);
  });
});

/**
 * The project's build, served with GitHub at a local server that answers as GitHub does (its `url:`),
 * the client id and secret filled in: "Continue with GitHub" on /login signs a new person up.
 */
async function expectGitHubSignIn(project: string): Promise<void> {
  const github = await startGitHub();
  try {
    const port = await freePort();
    const domain = (await readFile(join(project, "domain.yaml"), "utf8")).replace(
      "github: { type: github }",
      `github: { type: github, url: "${github.url}" }`,
    );
    const app = await startApp({
      app: project,
      domain,
      env: {
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        AUTH_PROVIDER_GITHUB_CLIENT_ID: github.clientId,
        AUTH_PROVIDER_GITHUB_CLIENT_SECRET: github.clientSecret,
      },
    });
    running.push(app);
    await api(app.url, "/user/setup", { method: "POST", body: { email: ADMIN.email, password: ADMIN.password } });
    github.nextUser = {
      id: 9001,
      login: "mona",
      name: "Mona Lisa",
      emails: [{ email: "mona@example.com", primary: true, verified: true }],
    };
    const page = await openTab(browser, app.url);
    await page.goto("/login");
    await page.getByRole("link", { name: "Continue with GitHub" }).click();
    await page.waitForURL(`${app.url}/profile`);
    expect(await profileValue(page, "mona@example.com", "Email")).toBe("mona@example.com");
    await saveScreenshot(page, "scaffold-github-sign-in");
    await page.context().close();
  } finally {
    await github.close();
  }
}

describe("npx create-domain-auth in a JavaScript project create-next-app made (--js)", () => {
  it("adds TypeScript: the project's ESLint passes, it builds and npm start serves the pages and the API", {
    timeout: 900_000,
  }, async () => {
    const { project, mine } = await userProject("js");
    wizard(project, "--yes", "--no-install");
    await expectUnchanged(project, mine);
    const tsconfig = await readFile(join(project, "tsconfig.json"), "utf8");
    expect(JSON.parse(tsconfig).extends).toBe("./jsconfig.json");
    await install(project);
    expectLintClean(project);
    run(project, "npm", ["run", "build"], 600_000);
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

describe("npm run try-wizard -- my-app, from the clone, for an empty folder (the packages unpublished)", () => {
  it("creates an app with the clone's core installed, that builds and whose npm start serves its home page and the first run", {
    timeout: 1_200_000,
  }, async () => {
    const parent = await mkdtemp(join(work, "empty-"));
    const project = join(parent, "my-app");
    // As docs/wizard.md says: one command in the clone; the wizard installs too.
    const output = run(REPOSITORY, "npm", ["run", "try-wizard", "--", project, "--yes"], 1_200_000);
    expect(output).toContain("Done: wrote");
    const manifest = JSON.parse(await readFile(join(project, "package.json"), "utf8"));
    expect(manifest.scripts).toMatchObject({ dev: "next dev", build: "next build", start: "node server.mjs" });
    expect(manifest.dependencies["@domain-auth/core"]).toMatch(/^file:.*\/\.try-wizard\/domain-auth-core-[\d.]+\.tgz$/);
    expect(JSON.parse(await readFile(join(project, "node_modules/@domain-auth/core/package.json"), "utf8")).name).toBe("@domain-auth/core");
    const app = await expectBuildAndFirstRun(project, "scaffold-new-app-profile");
    const home = await fetch(`${app.url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("My app");
    // The new root layout is styled from a stylesheet: the auth pages' policy refuses style attributes.
    const page = await openTab(browser, app.url);
    const refused: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) refused.push(message.text());
    });
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px");
    expect(refused).toEqual([]);
    await page.context().close();
  });
});
