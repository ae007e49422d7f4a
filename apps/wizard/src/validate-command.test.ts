import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../bin/create-domain-auth.js", import.meta.url));
const built = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const blogFixture = fileURLToPath(new URL("../../../packages/auth-core/test/fixtures/blog.domain.yaml", import.meta.url));

const INVALID = `name: blog
entities:
  User:
    fields:
      email: { type: string, required: yes }
      password: string
    permissions:
      read: [Admin, Ghost, "@Friends"]
auth:
  type: cookie
  roles: [Admin, Admin]
`;

let dir: string;

function validate(file: string): { status: number | null; lines: string[]; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, "validate", file], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const lines = `${result.stdout}${result.stderr}`.split("\n").filter((line) => line !== "");
  return { status: result.status, lines, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  if (!existsSync(built)) throw new Error("apps/wizard/dist/cli.js is missing: run `npm run build` first");
  dir = await mkdtemp(join(tmpdir(), "validate-command-"));
  await copyFile(blogFixture, join(dir, "domain.yaml"));
  await writeFile(join(dir, "broken.yaml"), INVALID);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("create-domain-auth validate", () => {
  it("exits 0 on a valid file", () => {
    const { status, lines, stderr } = validate("domain.yaml");
    expect(status).toBe(0);
    expect(stderr).toBe("");
    expect(lines).toEqual(["domain.yaml: valid"]);
  });

  it("exits 1 and prints every problem as FILE:LINE:COL  path  message", () => {
    const { status, lines } = validate("broken.yaml");
    expect(status).toBe(1);
    const problems = lines.filter((line) => /^broken\.yaml:\d+:\d+ {2}/.test(line));
    expect(problems.sort()).toEqual(
      [
        `broken.yaml:5:40  entities.User.fields.email.required  expected true or false, got string "yes"`,
        "broken.yaml:8:21  entities.User.permissions.read[1]  role 'Ghost' is not declared in auth.roles (declared: Admin)",
        "broken.yaml:8:28  entities.User.permissions.read[2]  warning: unknown token '@Friends' grants nothing (known: @Owner, @Authenticated, @Member)",
        "broken.yaml:10:9  auth.type  auth.type 'cookie' is planned but not implemented; use jwt or none",
        "broken.yaml:11:18  auth.roles[1]  role 'Admin' is declared twice",
      ].sort(),
    );
    expect(lines).toContain("broken.yaml: 4 errors, 1 warning");
  });

  it("names the file as given, and exits 1 when it does not exist", () => {
    const { status, lines } = validate("./missing.yaml");
    expect(status).toBe(1);
    expect(lines).toEqual(["./missing.yaml:1:1  (root)  file not found"]);
  });

  it("reads domain.yaml by default", () => {
    const result = spawnSync(process.execPath, [bin, "validate"], { cwd: dir, encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("domain.yaml: valid\n");
  });
});
