import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, buildCli } from "./built-cli.js";

let dir: string;

function run(args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}) {
  const { CI: _ci, ...env } = process.env;
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...env, ...options.env },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(join(tmpdir(), "wizard-cli-"));
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the built CLI as a process", () => {
  it("exits 2 at once when stdin is a pipe and --yes is missing, instead of waiting", () => {
    const result = run([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pass --yes to run unattended");
  });

  it("names an unknown option with the one it resembles, exit 2", () => {
    expect(run(["--typo"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "create-domain-auth: unknown option --typo (did you mean --type?)\nRun create-domain-auth --help for usage.\n",
    });
  });

  it("asks for --password-stdin when the admin command has no terminal", () => {
    const result = run(["admin", "root@example.com"]);
    expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining("--password-stdin") });
  });

  it("keeps validate working", async () => {
    expect(run(["validate"])).toMatchObject({ code: 1, stderr: "domain.yaml:1:1  (root)  file not found\n" });
    await writeFile(join(dir, "domain.yaml"), "name: x\nentities: {}\nauth:\n  type: none\n");
    expect(run(["validate", "domain.yaml"])).toMatchObject({ code: 0, stdout: "domain.yaml: valid\n" });
  });

  it("runs unattended with --yes and reports a bad default role as bad usage", async () => {
    await rm(join(dir, "domain.yaml"));
    expect(run(["--yes", "--default-role", "Admin"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("'Admin' is the setup role"),
    });
    expect(await readdir(dir)).toEqual([]);
    expect(run(["--yes", "--no-install", "--type", "none"]).code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([
      ".env.local",
      ".gitignore",
      "app",
      "components",
      "domain.yaml",
      "lib",
      "next.config.ts",
      "package.json",
      "proxy.ts",
      "server.mjs",
      "tsconfig.json",
    ]);
  });
});
