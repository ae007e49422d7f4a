import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, buildCli } from "./built-cli.js";

const DOMAIN = `name: blog
entities:
  User:
    fields:
      email: { type: string, required: true }
      password: { type: string, required: true }
      role: { type: string, default: Reader }
auth:
  type: jwt
  roles: [Admin, Reader]
`;

function run(
  args: string[],
  options: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, AUTH_BCRYPT_COST: "4", CI: "1", ...options.env };
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

describe("create-domain-auth admin", () => {
  let cwd: string;
  beforeAll(() => {
    buildCli();
    cwd = mkdtempSync(join(tmpdir(), "domain-auth-admin-"));
    writeFileSync(join(cwd, "domain.yaml"), DOMAIN);
  });

  it("creates an administrator from a password on stdin, then promotes on a second run", async () => {
    const created = await run(["admin", "Root@Example.com", "--password-stdin"], { cwd, stdin: "correct horse battery\n" });
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("root@example.com");
    expect(created.stdout).toContain("Admin");

    const again = await run(["admin", "root@example.com", "--password-stdin"], { cwd, stdin: "another passphrase\n" });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Gave root@example.com the role Admin/);
  });

  it("reads the environment like the server: a setting out of range is exit 1 naming it", async () => {
    const settings: Record<string, string>[] = [
      { AUTH_BCRYPT_COST: "3" },
      { AUTH_BCRYPT_COST: "4", NODE_ENV: "production" },
      { DATABASE_URL: "mysql://nowhere" },
    ];
    for (const env of settings) {
      const refused = await run(["admin", "env@example.com", "--password-stdin"], { cwd, stdin: "correct horse battery\n", env });
      expect(refused.code, JSON.stringify(env)).toBe(1);
      expect(refused.stderr).toMatch(/AUTH_BCRYPT_COST|DATABASE_URL/);
    }
  });

  it("refuses a weak password with exit code 1 and changes nothing", async () => {
    const weak = await run(["admin", "weak@example.com", "--password-stdin"], { cwd, stdin: "short\n" });
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/password/);
  });

  it("needs --password-stdin without a terminal, and an email", async () => {
    expect((await run(["admin", "x@example.com"], { cwd })).code).toBe(2);
    expect((await run(["admin"], { cwd })).code).toBe(2);
  });
});
