import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, WIZARD_DIR } from "./built-cli.js";

// The package as published: packed, then run with npx from the tarball in an empty folder.
let root: string;
let project: string;
let tarball: string;
let env: NodeJS.ProcessEnv;

/** An unattended run with flags for every question. */
const UNATTENDED = "--yes --no-install --type jwt --roles Admin,Editor,Reader --default-role Reader --no-register".split(" ");

function npx(...args: string[]) {
  // A relative path with a slash makes npx install the tarball rather than look up a command.
  const result = spawnSync("npx", ["--yes", `../${tarball}`, ...args], { cwd: project, env, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  buildCli();
  root = await mkdtemp(join(tmpdir(), "wizard-pack-"));
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", root], { cwd: WIZARD_DIR, encoding: "utf8" })) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = packed[0]?.filename ?? "";
  project = join(root, "project");
  await mkdir(project);
  const { CI: _ci, ...rest } = process.env;
  env = { ...rest, npm_config_cache: join(root, "npm-cache"), npm_config_update_notifier: "false", npm_config_fund: "false" };
}, 120_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("npx <tarball>", () => {
  it("ships the bundle, the templates, README.md and LICENSE, and depends on nothing: what it runs is bundled", async () => {
    const manifest = JSON.parse(await readFile(join(WIZARD_DIR, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    expect(manifest.dependencies).toBeUndefined();
    const listing = execFileSync("tar", ["tzf", join(root, tarball)], { encoding: "utf8" }).split("\n");
    expect(listing).toEqual(
      expect.arrayContaining([
        "package/dist/cli.js",
        "package/templates/manifest.yaml",
        "package/templates/next/app/api/[...path]/route.ts",
        "package/README.md",
        "package/LICENSE",
      ]),
    );
    expect(listing.filter((path) => path.startsWith("package/src/"))).toEqual([]);
  });

  it("sets up a folder unattended, and its own validate accepts the result", { timeout: 180_000 }, async () => {
    const run = npx(...UNATTENDED);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);

    const validate = npx("validate", "domain.yaml");
    expect(validate).toMatchObject({ code: 0, stdout: "domain.yaml: valid\n" });

    const domain = await readFile(join(project, "domain.yaml"), "utf8");
    expect(domain).toContain("  roles: [Admin, Editor, Reader]\n");
    expect(domain).toContain("      role: { type: string, default: Reader }\n");
    expect(domain).toContain(
      "  endpoints: { login: true, register: false, me: true, setup: true, logout: true, refresh: true, sessions: true, passwordReset: true, verifyEmail: true }\n",
    );
    const route = await readFile(join(project, "app/api/[...path]/route.ts"), "utf8");
    expect(route).toBe(await readFile(join(WIZARD_DIR, "templates/next/app/api/[...path]/route.ts"), "utf8"));
    expect(await readFile(join(project, ".env.local"), "utf8")).toMatch(
      /^AUTH_SECRET=[A-Za-z0-9_-]{43}\n\n# E-mail for password reset[\s\S]*\n# SMTP_URL=/,
    );
    expect(await readFile(join(project, ".gitignore"), "utf8")).toBe(
      "node_modules/\n.next/\nnext-env.d.ts\n*.tsbuildinfo\n.env.local\n.data/\n",
    );
    expect(JSON.parse(await readFile(join(project, "package.json"), "utf8"))).toMatchObject({
      scripts: { start: "node server.mjs" },
      dependencies: { "@domain-auth/core": expect.stringMatching(/^\^\d/), next: expect.any(String) },
    });

    const again = npx(...UNATTENDED);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("nothing to write");
    expect(await readFile(join(project, "domain.yaml"), "utf8")).toBe(domain);
  });

  it("installs nothing but itself for npx", async () => {
    // Runs after the set-up above, which made npx install the tarball into its cache.
    const installs = await readdir(join(root, "npm-cache", "_npx"));
    expect(installs.length).toBe(1);
    const modules = await readdir(join(root, "npm-cache", "_npx", installs[0] as string, "node_modules"));
    expect(modules.filter((name) => !name.startsWith("."))).toEqual(["create-domain-auth"]);
  });

  it("refuses to run without a terminal unless --yes is given", { timeout: 60_000 }, () => {
    const run = npx("--type", "none");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--yes");
  });
});
