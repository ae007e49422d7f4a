import { spawnSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { snapshotFiles } from "../src/testing/file-snapshot.js";
import { BIN, buildCli, WIZARD_DIR } from "./built-cli.js";
import { copyOfNextProject, type PROJECT_SHAPES } from "./create-next-app.js";

// The built wizard, run the way a user runs it, in projects create-next-app has just made.
const made: string[] = [];

function wizard(cwd: string, ...args: string[]) {
  const { CI: _ci, ...env } = process.env;
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function project(shape: keyof typeof PROJECT_SHAPES): Promise<string> {
  const dir = await copyOfNextProject(shape);
  made.push(dirname(dir));
  return dir;
}

beforeAll(() => {
  buildCli();
}, 120_000);
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("create-domain-auth in a project create-next-app made", () => {
  it("keeps the user's files, edits next.config and package.json, and a rerun changes nothing", { timeout: 240_000 }, async () => {
    const dir = await project("default");
    const mine = await snapshotFiles(dir);
    const run = wizard(dir, "--yes", "--no-install");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);

    for (const path of ["app/layout.tsx", "app/page.tsx", "app/globals.css", "tsconfig.json", "eslint.config.mjs"]) {
      expect(await readFile(join(dir, path), "utf8"), path).toBe(mine[path]);
    }
    const config = await readFile(join(dir, "next.config.ts"), "utf8");
    expect(config).toContain('  serverExternalPackages: ["@domain-auth/core"],\n');
    expect(config).toContain("  cacheComponents: true,\n");
    expect(
      config.replace(
        '  serverExternalPackages: ["@domain-auth/core"],\n  poweredByHeader: false,\n  experimental: { authInterrupts: true },\n',
        "",
      ),
    ).toBe(mine["next.config.ts"]);

    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    const { version } = JSON.parse(await readFile(join(WIZARD_DIR, "package.json"), "utf8"));
    expect(manifest.dependencies["@domain-auth/core"]).toBe(`^${version}`);
    expect(manifest.scripts.start).toBe("node server.mjs");
    expect(run.stdout).toContain("start: node server.mjs");
    expect(await readFile(join(dir, "app/api/[...path]/route.ts"), "utf8")).toContain("@domain-auth/core");

    const first = await snapshotFiles(dir);
    const again = wizard(dir, "--yes", "--no-install");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("nothing to write");
    expect(await snapshotFiles(dir)).toEqual(first);
  });

  it("puts the scaffold under src/ in a --src-dir project", { timeout: 240_000 }, async () => {
    const dir = await project("src");
    const mine = await snapshotFiles(dir);
    expect(wizard(dir, "--yes", "--no-install").code).toBe(0);
    expect(await readFile(join(dir, "src/app/api/[...path]/route.ts"), "utf8")).toContain("@domain-auth/core");
    expect(await readFile(join(dir, "server.mjs"), "utf8")).toContain("createServer");
    expect(await readFile(join(dir, "src/app/layout.tsx"), "utf8")).toBe(mine["src/app/layout.tsx"]);
    expect(Object.keys(await snapshotFiles(dir)).filter((path) => path.startsWith("app/") || path.startsWith("lib/"))).toEqual([]);
  });

  it.each([
    ["js", ""],
    ["js-src", "src/"],
  ] as const)(
    "adds TypeScript to a --js project (%s), keeping its files, and a rerun changes nothing",
    { timeout: 240_000 },
    async (shape, src) => {
      const dir = await project(shape);
      const mine = await snapshotFiles(dir);
      const run = wizard(dir, "--yes", "--no-install");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);

      const after = await snapshotFiles(dir);
      for (const path of Object.keys(mine).filter((file) => !["package.json", "next.config.mjs", ".gitignore"].includes(file))) {
        expect(after[path], path).toBe(mine[path]);
      }
      expect(mine["jsconfig.json"]).toContain(`"@/*": ["./${src}*"]`);
      expect(JSON.parse(after["tsconfig.json"] as string)).toMatchObject({
        extends: "./jsconfig.json",
        compilerOptions: { allowJs: true },
      });
      const versions = JSON.parse(await readFile(join(WIZARD_DIR, "templates/next/versions.json"), "utf8"));
      const manifest = JSON.parse(after["package.json"] as string);
      for (const name of ["typescript", "@types/react", "@types/react-dom", "@types/node"]) {
        expect(manifest.devDependencies[name], name).toBe(versions[name]);
      }
      expect(manifest.devDependencies["eslint-config-next"]).toBe(
        JSON.parse(mine["package.json"] as string).devDependencies["eslint-config-next"],
      );
      expect(after["next.config.mjs"]).toContain('serverExternalPackages: ["@domain-auth/core"]');
      expect(after[`${src}app/api/[...path]/route.ts`]).toContain("@domain-auth/core");
      expect(after[`${src}proxy.ts`]).toContain("withSecurityHeaders");
      expect(after[`${src}app/layout.js`]).toBe(mine[`${src}app/layout.js`]);
      expect(run.stdout).toContain("create     tsconfig.json  (TypeScript; extends jsconfig.json)");

      const again = wizard(dir, "--yes", "--no-install");
      expect(again.code).toBe(0);
      expect(again.stdout).toContain("nothing to write");
      expect(await snapshotFiles(dir)).toEqual(after);
    },
  );

  it("writes nothing and names the change when next.config wraps its config", { timeout: 240_000 }, async () => {
    const dir = await project("default");
    await writeFile(
      join(dir, "next.config.ts"),
      'import createMDX from "@next/mdx";\n\nexport default createMDX()({ cacheComponents: true });\n',
    );
    const before = await snapshotFiles(dir);
    const run = wizard(dir, "--yes", "--no-install");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("next.config.ts cannot be edited safely");
    expect(run.stderr).toContain('serverExternalPackages: ["@domain-auth/core"]');
    expect(await snapshotFiles(dir)).toEqual(before);
  });
});
