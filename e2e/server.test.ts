import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN, api } from "./support/flows.js";

const SERVER = fileURLToPath(new URL("../apps/web/server.mjs", import.meta.url));

describe("the production server", () => {
  let app: RunningApp;
  let token = "";

  beforeAll(async () => {
    app = await startApp();
    ({ token } = await setUpAdmin(app.url, ADMIN));
  });

  afterAll(async () => {
    await app?.stop();
  });

  test("throttles by the socket's address, whatever peer or forwarding headers a client sends", async () => {
    const attempt = (index: number) =>
      fetch(`${app.url}/api/user/login`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-domain-auth-peer": `10.0.${index >> 8}.${index & 255}`,
          "x-forwarded-for": `10.1.${index >> 8}.${index & 255}`,
        },
        body: JSON.stringify({ email: `visitor${index}@example.com`, password: "not a password" }),
      }).then((response) => response.status);
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, index) => attempt(batch * 10 + index)))));
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    expect(await attempt(1000)).toBe(429);
  });

  test("answers the API before Next.js, and a path it leaves to Next.js's route handler the same way", async () => {
    const seen = async (path: string) => {
      const response = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, vary: response.headers.get("vary"), body: await response.json() };
    };
    // fetch would resolve the dot segment before sending.
    const seenAsSent = (path: string) =>
      new Promise<{ status: number; vary: string | null; body: unknown }>((resolve, reject) => {
        const { hostname, port } = new URL(app.url);
        request({ host: hostname, port, path, headers: { authorization: `Bearer ${token}` } }, (response) => {
          let text = "";
          response.on("data", (chunk) => {
            text += chunk;
          });
          response.on("end", () => {
            const vary = response.headers.vary ?? null;
            resolve({ status: response.statusCode ?? 0, vary, body: JSON.parse(text) });
          });
        })
          .on("error", reject)
          .end();
      });
    const direct = await seen("/api/user/me");
    // A path with a dot segment is not plain: server.mjs leaves it to Next.js, which resolves it before its
    // proxy and routes see it, and whose route handler passes it on.
    const throughNext = await seenAsSent("/api/user/x/../me");
    expect(direct.status).toBe(200);
    expect(direct.body).toEqual(throughNext.body);
    expect(direct.vary).toBeNull();
    expect(throughNext.vary).toContain("rsc");
    // Next.js's own answers stay its own: the trailing-slash redirect, the pages.
    expect((await fetch(`${app.url}/api/user/me/`, { redirect: "manual" })).status).toBe(308);
  });

  test("a healthy start prints one line saying where to go, after a warning that a registration would close setup", async () => {
    const lines = app.output().trim().split("\n");
    expect(lines.at(-1)).toMatch(/^domain-auth: create the first administrator at http:\/\/localhost:\d+\/setup$/);
    expect(lines.at(-2)).toBe(
      "domain-auth: warning: register is on: until setup is done, anyone who registers first closes setup (then only `npx create-domain-auth admin <email>` lets you in)",
    );
    expect((await api(app.url, "/user/setup")).body).toEqual({ setupRequired: false });
  });

  test("an invalid domain.yaml refuses to start with one clear line and exit code 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "domain-auth-e2e-"));
    try {
      writeFileSync(join(dir, "domain.yaml"), "name: broken\nentities: {}\nauth:\n  type: cookie\n");
      const result = spawnSync(process.execPath, [SERVER], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, PORT: "0", DOMAIN_FILE: join(dir, "domain.yaml"), DATABASE_URL: `file:${join(dir, "app.db")}` },
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/^domain-auth: cannot start: .*auth\.type 'cookie' is planned/),
      ]);
      expect(result.stdout).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("NODE_ENV=production without AUTH_SECRET refuses to start", () => {
    const { AUTH_SECRET: _ignored, ...env } = process.env;
    const result = spawnSync(process.execPath, [SERVER], {
      encoding: "utf8",
      env: { ...env, NODE_ENV: "production", PORT: "0", DOMAIN_FILE: fileURLToPath(new URL("../apps/web/domain.yaml", import.meta.url)) },
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe("domain-auth: cannot start: AUTH_SECRET must be set (at least 32 bytes) when NODE_ENV is production");
  });
});
