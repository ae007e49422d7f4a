import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAuth } from "@domain-auth/core";
import { loadDomain } from "@domain-auth/core/config";
import { Secret, TOTP } from "otpauth";
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

describe("create-domain-auth admin --reset-mfa", () => {
  let cwd: string;
  beforeAll(() => {
    buildCli();
    cwd = mkdtempSync(join(tmpdir(), "domain-auth-reset-mfa-"));
    writeFileSync(join(cwd, "domain.yaml"), DOMAIN);
  });

  /** Runs `work` with an instance on the command's database, calling its auth endpoints in process. */
  async function withInstance<T>(
    work: (call: (path: string, body: unknown, token?: string) => Promise<Record<string, unknown>>) => Promise<T>,
  ): Promise<T> {
    const auth = await createAuth({
      domain: await loadDomain(join(cwd, "domain.yaml")),
      database: `file:${join(cwd, ".data", "app.db")}`,
      secret: "a-secret-for-the-admin-command-tests!",
      bcryptCost: 4,
      hashThreads: 1,
    });
    try {
      return await work(async (path, body, token) => {
        const headers: Record<string, string> = {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        };
        const response = await auth.handle(
          new Request(`http://localhost/api/user/${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
        );
        return (await response.json()) as Record<string, unknown>;
      });
    } finally {
      await auth.close();
    }
  }

  it("removes the user's second factors: login signs in with the password alone again", async () => {
    expect((await run(["admin", "root@example.com", "--password-stdin"], { cwd, stdin: "correct horse battery\n" })).code).toBe(0);
    const credentials = { email: "root@example.com", password: "correct horse battery" };
    await withInstance(async (call) => {
      const { token } = await call("login", credentials);
      const { secret } = await call("mfa/totp", {}, String(token));
      const code = TOTP.generate({ secret: Secret.fromBase32(String(secret)), algorithm: "SHA1", digits: 6, period: 30 });
      expect(await call("mfa/totp/confirm", { code }, String(token))).toHaveProperty("recoveryCodes");
      expect(await call("login", credentials)).toMatchObject({ mfaRequired: true });
    });

    const reset = await run(["admin", "--reset-mfa", "Root@Example.com"], { cwd });
    expect(reset.stderr).toBe("");
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(/Removed the second factors of root@example.com/);
    await withInstance(async (call) => {
      expect(await call("login", credentials)).toMatchObject({ token: expect.any(String) });
    });
  });

  it("is exit 1 for an unknown email and 2 without one or with a password", async () => {
    const unknown = await run(["admin", "--reset-mfa", "nobody@example.com"], { cwd });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no user has the email nobody@example.com/);
    expect((await run(["admin", "--reset-mfa"], { cwd })).code).toBe(2);
    expect((await run(["admin", "--reset-mfa", "root@example.com", "--password-stdin"], { cwd, stdin: "x\n" })).code).toBe(2);
  });
});
