import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// `@domain-auth/core/policy` runs in client components: its whole import graph must bundle for a
// browser, with nothing from Node (no node:* built-in) and no package (no kysely, pg,
// better-sqlite3, jose, bcrypt…): only the core's own browser-safe modules. `./password` adds the
// offline password estimator its rule uses, and nothing else.

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url));
const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as {
  exports: Record<string, { source: string; types: string; default: string }>;
};
const subpath = manifest.exports["./policy"];

/**
 * The packages `./password`'s rule needs, made for browsers and Node alike and working offline (their
 * word lists are in the package): zxcvbn-ts's estimator, its common-password dictionary, and theirs.
 */
const BROWSER_SAFE_PACKAGES = new Set([
  "@zxcvbn-ts/core",
  "@zxcvbn-ts/language-common",
  "@zxcvbn-ts/dictionary-compression",
  "fastest-levenshtein",
]);

/** How the tests bundle a file for the browser: in memory, with the metafile that says what went in and what it imports. */
const BROWSER_BUILD = {
  absWorkingDir: PACKAGE,
  bundle: true,
  platform: "browser",
  format: "esm",
  write: false,
  metafile: true,
  logLevel: "silent",
} as const;

/** Bundles `entry` for the browser; resolves to the modules it holds, relative to the package. */
async function browserBundleOf(entry: string): Promise<string[]> {
  const result = await build({ ...BROWSER_BUILD, entryPoints: [join(PACKAGE, entry)] });
  return Object.keys(result.metafile.inputs).map((input) => relative(PACKAGE, join(PACKAGE, input)));
}

describe("@domain-auth/core/policy", () => {
  it("is in the exports map with its source, types and build", () => {
    expect(subpath).toEqual({ source: "./src/browser.ts", types: "./dist/browser.d.ts", default: "./dist/browser.js" });
  });

  it.each([
    ["the build (what the exports map gives browsers)", () => subpath?.default ?? ""],
    ["the source", () => subpath?.source ?? ""],
  ])("bundles for the browser from %s, holding only the core's own modules", async (_label, entryOf) => {
    const entry = entryOf();
    expect(existsSync(join(PACKAGE, entry)), `${entry} is missing: run npm run build`).toBe(true);
    const modules = await browserBundleOf(entry);
    const folder = entry.startsWith("./dist/") ? "dist/" : "src/";
    expect(modules.length).toBeGreaterThan(1);
    const foreign = modules.filter((path) => !path.startsWith(folder) || path.includes("node_modules"));
    // Named by package where there is one: ["kysely"] reads better than its 200 files.
    const packages = [...new Set(foreign.map((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path))];
    // No package at all: the password estimator is `./password`'s, loaded only where a password is set.
    expect(packages).toEqual([]);
  });

  it("exports the rules, the error codes, the limits and the paths", async () => {
    const policy = await import("@domain-auth/core/policy");
    expect(Object.keys(policy).sort()).toEqual(expect.arrayContaining(["ERROR_CODES", "MAX_EMAIL_LENGTH", "apiPaths", "authorize"]));
    expect(policy.apiPaths({ segment: "staff-member" })).toMatchObject({
      login: "/api/staff-member/login",
      me: "/api/staff-member/me",
      register: "/api/staff-member/register",
      setup: "/api/staff-member/setup",
    });
    expect(policy.collectionPath({ segment: "post" }, { limit: 20, offset: 40 })).toBe("/api/post?limit=20&offset=40");
    expect(policy.itemPath({ segment: "post" }, "a/b")).toBe("/api/post/a%2Fb");
    expect(policy.apiPaths({ segment: "user" })).toMatchObject({
      logout: "/api/user/logout",
      refresh: "/api/user/refresh",
      sessions: "/api/user/sessions",
    });
    expect(policy.sessionPath({ segment: "user" }, "a/b")).toBe("/api/user/sessions/a%2Fb");
    expect(policy.userSessionsPath({ segment: "user" }, "u 1&x")).toBe("/api/user/sessions?userId=u+1%26x");
    expect(policy.eventsPath({ segment: "user" })).toBe("/api/user/events");
    expect(policy.eventsPath({ segment: "user" }, { type: "login.succeeded", limit: 5 })).toBe(
      "/api/user/events?type=login.succeeded&limit=5",
    );
    expect(policy.SECURITY_EVENT_TYPES).toContain("login.succeeded");
  });
});

/** The `node:` built-ins a bundle of `entry` would import, were they allowed (marked external). */
async function nodeImportsOf(entry: string): Promise<string[]> {
  const result = await build({ ...BROWSER_BUILD, entryPoints: [join(PACKAGE, entry)], external: ["node:*"] });
  return Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.filter((imported) => imported.path.startsWith("node:")).map((imported) => imported.path),
  );
}

describe.each(["./policy", "./endpoints", "./vocabulary", "./password"])("@domain-auth/core%s in a browser", (name) => {
  const paths = manifest.exports[name];

  it.each([
    ["the build", () => paths?.default ?? ""],
    ["the source", () => paths?.source ?? ""],
  ])("imports nothing from node: (%s)", async (_label, entryOf) => {
    const entry = entryOf();
    expect(existsSync(join(PACKAGE, entry)), `${entry} is missing: run npm run build`).toBe(true);
    expect(await nodeImportsOf(entry)).toEqual([]);
    const modules = await browserBundleOf(entry);
    const packageOf = (path: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
    const allowed = (path: string) => name === "./password" && BROWSER_SAFE_PACKAGES.has(packageOf(path) ?? "");
    expect(modules.filter((path) => path.includes("node_modules") && !allowed(path))).toEqual([]);
  });
});

describe("@domain-auth/core/password", () => {
  it("is the rule the server applies, with its estimate, for the pages' strength meter", async () => {
    const password = await import("@domain-auth/core/password");
    expect(password.passwordProblem("password")).toBe(password.COMMON_PASSWORD_PROBLEM);
    expect(password.passwordProblem("short")).toBe("must be at least 8 characters long");
    expect(password.passwordScore("correct horse battery staple")).toBe(4);
    // The limits forms show are here too, and only here.
    expect(password.MIN_PASSWORD_CHARACTERS).toBe(8);
    expect(password.passwordLengthProblem("short")).toBe("must be at least 8 characters long");
  });
});

describe("@domain-auth/core/endpoints", () => {
  it("lists the auth endpoints with their paths, methods and flags", async () => {
    const endpoints = await import("@domain-auth/core/endpoints");
    expect(endpoints.AUTH_ENDPOINTS.session).toMatchObject({ path: "sessions/{id}", flag: "sessions" });
    expect(endpoints.endpointFlagLabel("passwordReset", { segment: "user" })).toBe("POST /api/user/forgot-password and reset-password");
    expect(endpoints.endpointFlagLabel("verifyEmail", { segment: "user" })).toBe("POST /api/user/verify-email and resend-verification");
    expect(endpoints.endpointFlagLabel("sessions", { segment: "staff-member" })).toBe("GET/DELETE /api/staff-member/sessions");
  });
});
