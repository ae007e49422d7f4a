import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { detectProject, packageManagerFromAgent, projectPath } from "./project.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "project-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const TSCONFIG = (target: string) => `{
  // as create-next-app writes it, plus a comment
  "compilerOptions": {
    "strict": true,
    "paths": { "@/*": ["${target}"] },
  },
}
`;

async function nextProject(options: { appDir?: string; tsconfig?: string | null; files?: Record<string, string> } = {}): Promise<void> {
  await writeFile(join(dir, "package.json"), JSON.stringify({ dependencies: { next: "16.4.3" } }));
  await mkdir(join(dir, options.appDir ?? "app"), { recursive: true });
  if (options.tsconfig !== null) await writeFile(join(dir, "tsconfig.json"), options.tsconfig ?? TSCONFIG("./*"));
  for (const [path, content] of Object.entries(options.files ?? {})) await writeFile(join(dir, path), content);
}

describe("detectProject", () => {
  it("finds a folder without package.json new, with the package manager that launched the wizard", async () => {
    expect(await detectProject(dir)).toEqual({ kind: "new", packageManager: "npm" });
    expect(await detectProject(dir, { userAgent: "pnpm/9.1.0 npm/? node/v20.12.0 linux x64" })).toEqual({
      kind: "new",
      packageManager: "pnpm",
    });
  });

  it.each([
    ["package-lock.json", "npm"],
    ["pnpm-lock.yaml", "pnpm"],
    ["yarn.lock", "yarn"],
    ["bun.lock", "bun"],
    ["bun.lockb", "bun"],
  ])("reads the package manager from %s", async (lockfile, manager) => {
    await nextProject({ files: { [lockfile]: "" } });
    expect(await detectProject(dir, { userAgent: "npm/10" })).toMatchObject({ kind: "next", packageManager: manager });
  });

  it("prefers package.json's packageManager field, then a parent folder's lock file", async () => {
    await writeFile(join(dir, "yarn.lock"), "");
    const app = dir;
    dir = join(app, "web");
    await mkdir(dir);
    await nextProject();
    expect(await detectProject(dir)).toMatchObject({ packageManager: "yarn" });
    await writeFile(join(dir, "package.json"), JSON.stringify({ packageManager: "pnpm@9.0.0", devDependencies: { next: "16" } }));
    expect(await detectProject(dir)).toMatchObject({ packageManager: "pnpm" });
    dir = app;
  });

  it("finds an app/ project, its next.config and its package.json", async () => {
    await nextProject({ files: { "next.config.mjs": "export default {};\n" } });
    expect(await detectProject(dir)).toEqual({
      kind: "next",
      sourceDir: "",
      packageManager: "npm",
      nextConfig: "next.config.mjs",
      packageJson: '{"dependencies":{"next":"16.4.3"}}',
      compilerConfig: "tsconfig.json",
    });
  });

  it("finds a src/app project, whose alias points at src/", async () => {
    await nextProject({ appDir: "src/app", tsconfig: TSCONFIG("./src/*") });
    expect(await detectProject(dir)).toMatchObject({ kind: "next", sourceDir: "src/", nextConfig: undefined });
  });

  it("refuses a package.json without next, or a project without the App Router", async () => {
    await writeFile(join(dir, "package.json"), JSON.stringify({ dependencies: { express: "5" } }));
    expect(await detectProject(dir)).toMatchObject({ kind: "unsupported", message: expect.stringContaining("does not list next") });
    await writeFile(join(dir, "package.json"), JSON.stringify({ devDependencies: { next: "16" } }));
    expect(await detectProject(dir)).toMatchObject({ kind: "unsupported", message: expect.stringContaining("No app/ or src/app/") });
  });

  it("finds a JavaScript project, with its jsconfig.json or without one", async () => {
    await nextProject({ tsconfig: null, files: { "jsconfig.json": '{ "compilerOptions": { "paths": { "@/*": ["./*"] } } }' } });
    expect(await detectProject(dir)).toMatchObject({ kind: "next", sourceDir: "", compilerConfig: "jsconfig.json" });
    await rm(join(dir, "jsconfig.json"));
    expect(await detectProject(dir)).toMatchObject({ kind: "next", sourceDir: "", compilerConfig: undefined });
    // A tsconfig.json, as Next.js reads it, wins over jsconfig.json.
    await nextProject({ files: { "jsconfig.json": "{}" } });
    expect(await detectProject(dir)).toMatchObject({ kind: "next", compilerConfig: "tsconfig.json" });
  });

  it("refuses a jsconfig.json whose @/* alias is missing or points elsewhere, as it does a tsconfig.json's", async () => {
    await nextProject({ appDir: "src/app", tsconfig: null, files: { "jsconfig.json": "{}\n" } });
    expect(await detectProject(dir)).toEqual({
      kind: "unsupported",
      message:
        'jsconfig.json must map "@/*" to the src folder, as create-next-app does: in "compilerOptions", add "paths": { "@/*": ["./src/*"] }.',
    });
    await writeFile(join(dir, "jsconfig.json"), TSCONFIG("./*"));
    expect(await detectProject(dir)).toMatchObject({ kind: "unsupported", message: expect.stringContaining("jsconfig.json must map") });
    await writeFile(join(dir, "jsconfig.json"), TSCONFIG("./src/*"));
    expect(await detectProject(dir)).toMatchObject({ kind: "next", sourceDir: "src/", compilerConfig: "jsconfig.json" });
  });

  it("refuses a tsconfig.json whose @/* alias points elsewhere", async () => {
    await nextProject({ appDir: "src/app", tsconfig: TSCONFIG("./*") });
    expect(await detectProject(dir)).toMatchObject({
      kind: "unsupported",
      message: expect.stringContaining('"paths": { "@/*": ["./src/*"] }'),
    });
    await writeFile(join(dir, "tsconfig.json"), '{ "compilerOptions": { "baseUrl": "src", "paths": { "@/*": ["*"] } } }');
    expect(await detectProject(dir)).toMatchObject({ kind: "next", sourceDir: "src/" });
    await writeFile(join(dir, "tsconfig.json"), '{ "extends": "./base.json" }');
    expect(await detectProject(dir)).toMatchObject({ kind: "next" });
  });
});

describe("projectPath", () => {
  it("puts app, library and proxy files under src/, and root files at the root", () => {
    expect(projectPath("app/api/[...path]/route.ts", "src/")).toBe("src/app/api/[...path]/route.ts");
    expect(projectPath("lib/domain-auth/session.ts", "src/")).toBe("src/lib/domain-auth/session.ts");
    expect(projectPath("proxy.ts", "src/")).toBe("src/proxy.ts");
    expect(projectPath("server.mjs", "src/")).toBe("server.mjs");
    expect(projectPath(".env.local", "src/")).toBe(".env.local");
    expect(projectPath("app/page.tsx", "")).toBe("app/page.tsx");
  });
});

describe("packageManagerFromAgent", () => {
  it("reads npx, pnpm dlx, yarn dlx and bunx, else npm", () => {
    expect(packageManagerFromAgent("yarn/4.1.0 npm/? node/v20")).toBe("yarn");
    expect(packageManagerFromAgent("bun/1.1.0")).toBe("bun");
    expect(packageManagerFromAgent(undefined)).toBe("npm");
  });
});
