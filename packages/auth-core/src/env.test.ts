import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DomainConfigError } from "./config/index.js";
import { createAuthFromEnv } from "./env.js";
import { EnvironmentError, readSettings } from "./settings.js";

const BLOG =
  "name: blog\nentities:\n  User:\n    fields:\n      email: { type: string, required: true }\n      password: { type: string, required: true }\nauth: { type: jwt }\n";

describe("createAuthFromEnv", () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));

  function workspace(yaml = BLOG): string {
    const directory = mkdtempSync(join(tmpdir(), "domain-auth-env-"));
    writeFileSync(join(directory, "domain.yaml"), yaml);
    process.chdir(directory);
    return directory;
  }

  it("runs on the defaults in development, keeping a generated secret under .data/", async () => {
    const directory = workspace();
    const auth = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4" });
    const secret = readFileSync(join(directory, ".data", "auth-secret"), "utf8").trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(await auth.isSetupRequired()).toBe(true);
    await auth.close();
    const again = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4" });
    await again.close();
    expect(readFileSync(join(directory, ".data", "auth-secret"), "utf8").trim()).toBe(secret);
  });

  it("creates the database, its -wal and -shm files and the development secret readable by their owner only", async () => {
    const directory = workspace();
    const auth = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4" }, { warn: () => {} });
    const mode = (name: string) => (statSync(join(directory, ".data", name)).mode & 0o777).toString(8);
    try {
      expect(mode("")).toBe("700");
      expect({ db: mode("app.db"), wal: mode("app.db-wal"), shm: mode("app.db-shm"), secret: mode("auth-secret") }).toEqual({
        db: "600",
        wal: "600",
        shm: "600",
        secret: "600",
      });
    } finally {
      await auth.close();
    }
  });

  it("warns once at start for each development-only setting in use, and not in production", async () => {
    workspace();
    const lines: string[] = [];
    const development = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4" }, { warn: (line) => lines.push(line) });
    await development.close();
    expect(lines).toEqual([
      expect.stringMatching(/AUTH_BCRYPT_COST=4 is below 10/),
      expect.stringMatching(/AUTH_SECRET is not set/),
      expect.stringMatching(/SMTP_URL is not set; e-mails are printed here/),
    ]);
    lines.length = 0;
    const production = await createAuthFromEnv(
      { NODE_ENV: "production", AUTH_SECRET: "p".repeat(32), SMTP_URL: "smtp://127.0.0.1:2525", APP_URL: "https://app.example.com" },
      { warn: (line) => lines.push(line) },
    );
    await production.close();
    expect(lines).toEqual([]);
  });

  it("requires a secret of at least 32 bytes in production", async () => {
    workspace();
    await expect(createAuthFromEnv({ NODE_ENV: "production" })).rejects.toThrow(EnvironmentError);
    await expect(createAuthFromEnv({ AUTH_SECRET: "short" })).rejects.toThrow(/32 bytes/);
  });

  it("never allows a bcrypt cost below 10 in production", async () => {
    workspace();
    await expect(createAuthFromEnv({ NODE_ENV: "production", AUTH_SECRET: "x".repeat(32), AUTH_BCRYPT_COST: "4" })).rejects.toThrow(
      /AUTH_BCRYPT_COST/,
    );
  });

  it("reads SETUP_TOKEN: setup then needs it; empty means unset; a short one is refused", async () => {
    workspace();
    const guarded = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4", SETUP_TOKEN: "a-setup-token-of-enough-bytes" });
    try {
      expect(guarded.setupTokenRequired).toBe(true);
      const body = JSON.stringify({ email: "admin@example.com", password: "correct horse battery" });
      const setup = await guarded.handle(
        new Request("http://localhost/api/user/setup", { method: "POST", headers: { "content-type": "application/json" }, body }),
      );
      expect(setup.status).toBe(403);
    } finally {
      await guarded.close();
    }
    const open = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4", SETUP_TOKEN: "" });
    expect(open.setupTokenRequired).toBe(false);
    await open.close();
    await expect(createAuthFromEnv({ AUTH_BCRYPT_COST: "4", SETUP_TOKEN: "short" })).rejects.toThrow(EnvironmentError);
    await expect(createAuthFromEnv({ AUTH_BCRYPT_COST: "4", SETUP_TOKEN: "x".repeat(15) })).rejects.toThrow(
      /SETUP_TOKEN must be at least 16 bytes/,
    );
  });

  it("limits registrations per address to AUTH_REGISTER_LIMIT, a whole number of at least 1", async () => {
    workspace();
    for (const value of ["0", "-1", "1.5", "many", "1000001"])
      await expect(createAuthFromEnv({ AUTH_BCRYPT_COST: "4", AUTH_REGISTER_LIMIT: value })).rejects.toThrow(/AUTH_REGISTER_LIMIT/);
    const auth = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4", AUTH_REGISTER_LIMIT: "1" });
    try {
      const register = (email: string) =>
        auth.handle(
          new Request("http://localhost/api/user/register", {
            method: "POST",
            headers: { "content-type": "application/json", "x-domain-auth-peer": "192.0.2.1" },
            body: JSON.stringify({ email, password: "correct horse" }),
          }),
        );
      expect((await register("first@example.com")).status).toBe(201);
      expect((await register("second@example.com")).status).toBe(429);
    } finally {
      await auth.close();
    }
  });

  it("reads AUTH_REAUTH_WINDOW: 600 seconds by default, 0 allowed, and hands it to the instance", async () => {
    expect(readSettings({})).toMatchObject({ reauthWindowSeconds: 600 });
    expect(readSettings({ AUTH_REAUTH_WINDOW: "0" })).toMatchObject({ reauthWindowSeconds: 0 });
    for (const value of ["-1", "1.5", "soon"]) expect(() => readSettings({ AUTH_REAUTH_WINDOW: value })).toThrow(/AUTH_REAUTH_WINDOW/);
    workspace();
    const auth = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4", AUTH_REAUTH_WINDOW: "0" });
    try {
      const post = (path: string, body: unknown, token?: string) =>
        auth.handle(
          new Request(`http://localhost/api/user/${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
            body: JSON.stringify(body),
          }),
        );
      const setup = await post("setup", { email: "admin@example.com", password: "correct horse" });
      const { token } = (await setup.json()) as { token: string };
      const key = await post("api-keys", { name: "x" }, token);
      expect(((await key.json()) as { code: string }).code).toBe("REAUTHENTICATION_REQUIRED");
    } finally {
      await auth.close();
    }
  });

  it("reads AUTH_REFRESH_TTL and AUTH_SESSION_MAX_AGE: 30 and 90 days by default, whole numbers of at least 1", async () => {
    expect(readSettings({})).toMatchObject({ refreshTtlSeconds: 2592000, sessionMaxAgeSeconds: 7776000 });
    expect(readSettings({ AUTH_REFRESH_TTL: "600", AUTH_SESSION_MAX_AGE: "900" })).toMatchObject({
      refreshTtlSeconds: 600,
      sessionMaxAgeSeconds: 900,
    });
    for (const value of ["0", "-1", "1.5", "soon"]) {
      expect(() => readSettings({ AUTH_REFRESH_TTL: value })).toThrow(/AUTH_REFRESH_TTL/);
      expect(() => readSettings({ AUTH_SESSION_MAX_AGE: value })).toThrow(/AUTH_SESSION_MAX_AGE/);
    }
    workspace();
    const auth = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4", AUTH_REFRESH_TTL: "600", AUTH_SESSION_MAX_AGE: "500" });
    try {
      const setup = await auth.handle(
        new Request("http://localhost/api/user/setup", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "admin@example.com", password: "correct horse" }),
        }),
      );
      expect(((await setup.json()) as { refreshExpiresIn: number }).refreshExpiresIn).toBe(500);
    } finally {
      await auth.close();
    }
  });

  it("reads CORS_ORIGINS: '*' or exact origins, refusing anything else with one line naming it", () => {
    expect(readSettings({}).corsOrigins).toBeNull();
    expect(readSettings({ CORS_ORIGINS: " " }).corsOrigins).toBeNull();
    expect(readSettings({ CORS_ORIGINS: "*" }).corsOrigins).toBe("*");
    expect(readSettings({ CORS_ORIGINS: "https://app.example.com, http://localhost:5173" }).corsOrigins).toEqual([
      "https://app.example.com",
      "http://localhost:5173",
    ]);
    for (const value of [
      "https://app.example.com/",
      "app.example.com",
      "ftp://files.example.com",
      "*, https://a.example",
      "https://a.example/x",
    ]) {
      expect(() => readSettings({ CORS_ORIGINS: value })).toThrow(EnvironmentError);
      expect(() => readSettings({ CORS_ORIGINS: value })).toThrow(/^CORS_ORIGINS must be '\*' or comma-separated origins/);
    }
    expect(() => readSettings({ CORS_ORIGINS: "https://app.example.com/" })).toThrow(/write it as https:\/\/app\.example\.com$/);
  });

  describe("providers (AUTH_PROVIDER_<ID>_CLIENT_ID and _CLIENT_SECRET)", () => {
    const WITH_PROVIDERS = BLOG.replace(
      "auth: { type: jwt }\n",
      "auth:\n  type: jwt\n  providers:\n    acme-id: { type: oidc, issuer: 'https://id.acme.example' }\n    github: { type: github }\n",
    );
    const SECRETS = {
      AUTH_PROVIDER_ACME_ID_CLIENT_ID: "acme-client",
      AUTH_PROVIDER_ACME_ID_CLIENT_SECRET: "acme-secret",
      AUTH_PROVIDER_GITHUB_CLIENT_ID: "github-client",
      AUTH_PROVIDER_GITHUB_CLIENT_SECRET: "github-secret",
    };

    it("starts with both variables of every declared provider, and serves them", async () => {
      workspace(WITH_PROVIDERS);
      const auth = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4", ...SECRETS }, { warn: () => {} });
      try {
        const answer = await auth.handle(new Request("http://localhost/api/user/providers"));
        const { items } = (await answer.json()) as { items: { id: string }[] };
        expect(items.map((provider) => provider.id)).toEqual(["acme-id", "github"]);
      } finally {
        await auth.close();
      }
    });

    it("refuses to start without one, naming the variable", async () => {
      workspace(WITH_PROVIDERS);
      for (const missing of Object.keys(SECRETS)) {
        const env = { AUTH_BCRYPT_COST: "4", ...SECRETS, [missing]: "" };
        await expect(createAuthFromEnv(env, { warn: () => {} })).rejects.toThrow(
          new EnvironmentError(
            `${missing} must be set: domain.yaml declares the provider ${missing.includes("ACME") ? "acme-id" : "github"}`,
          ),
        );
      }
    });

    it("needs APP_URL in production: the callback URL is built from it, never from Host", async () => {
      workspace(WITH_PROVIDERS);
      const production = { NODE_ENV: "production", AUTH_SECRET: "a".repeat(32), ...SECRETS };
      await expect(createAuthFromEnv(production, { warn: () => {} })).rejects.toThrow(
        /APP_URL must be set in production when domain.yaml declares auth.providers/,
      );
    });
  });

  describe("e-mail (APP_URL, SMTP_URL, MAIL_FROM)", () => {
    const production = { NODE_ENV: "production", AUTH_SECRET: "p".repeat(32) };
    const post = (path: string, body: unknown) =>
      new Request(`http://localhost/api/user/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    it("refuses production with SMTP_URL but no APP_URL, in one line", async () => {
      workspace();
      const started = createAuthFromEnv({ ...production, SMTP_URL: "smtp://mail.example.com:587" }, { warn: () => {} });
      await expect(started).rejects.toThrow(EnvironmentError);
      await expect(started).rejects.toThrow(/^APP_URL must be set when SMTP_URL is set in production[^\n]*$/);
    });

    it("refuses production with auth.verifyEmail: true and no SMTP_URL, in one line", async () => {
      workspace(BLOG.replace("auth: { type: jwt }", "auth: { type: jwt, verifyEmail: true }"));
      const started = createAuthFromEnv(production, { warn: () => {} });
      await expect(started).rejects.toThrow(EnvironmentError);
      await expect(started).rejects.toThrow(/^SMTP_URL must be set in production when domain.yaml has auth.verifyEmail: true[^\n]*$/);
    });

    it("turns the e-mail endpoints off in production without SMTP_URL, saying so once at start", async () => {
      workspace();
      const lines: string[] = [];
      const auth = await createAuthFromEnv(production, { warn: (line) => lines.push(line) });
      try {
        expect(lines).toEqual([
          expect.stringMatching(/APP_URL is not set: cookie sign-ins and passkeys take the request's Host header as the app's origin/),
          expect.stringMatching(/SMTP_URL is not set, so no e-mail is sent: forgot-password, reset-password/),
        ]);
        expect(auth.endpoints).toMatchObject({ login: true, passwordReset: false, verifyEmail: false });
        for (const path of ["forgot-password", "reset-password", "verify-email", "resend-verification"]) {
          const response = await auth.handle(post(path, { email: "a@example.com" }));
          expect(response.status, path).toBe(404);
        }
      } finally {
        await auth.close();
      }
    });

    it("prints e-mails in development without SMTP_URL: the e-mail endpoints exist", async () => {
      workspace();
      const auth = await createAuthFromEnv({ AUTH_BCRYPT_COST: "4" }, { warn: () => {} });
      try {
        expect(auth.endpoints).toMatchObject({ passwordReset: true, verifyEmail: true });
        expect((await auth.handle(post("forgot-password", { email: "nobody@example.com" }))).status).toBe(202);
      } finally {
        await auth.close();
      }
    });

    it("reads APP_URL as an http(s) origin and SMTP_URL as smtp(s)", () => {
      expect(readSettings({ APP_URL: "https://app.example.com/" }).appUrl).toBe("https://app.example.com");
      expect(() => readSettings({ APP_URL: "app.example.com" })).toThrow(/APP_URL/);
      expect(() => readSettings({ APP_URL: "javascript:alert(1)" })).toThrow(/APP_URL/);
      expect(readSettings({ SMTP_URL: "smtps://u:p@mail.example.com" }).smtpUrl).toBe("smtps://u:p@mail.example.com");
      expect(() => readSettings({ SMTP_URL: "http://mail.example.com" })).toThrow(/SMTP_URL/);
      expect(readSettings({}).mailFrom).toBeUndefined();
    });
  });

  it("refuses an invalid domain.yaml with its diagnostics", async () => {
    workspace("name: blog\nentities: {}\nauth: { type: cookie }\n");
    await expect(createAuthFromEnv({})).rejects.toThrow(DomainConfigError);
  });

  it("refuses an unknown or unreachable database with one line", async () => {
    workspace();
    await expect(createAuthFromEnv({ DATABASE_URL: "mysql://x", AUTH_BCRYPT_COST: "4" })).rejects.toThrow(/DATABASE_URL/);
    await expect(createAuthFromEnv({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/none", AUTH_BCRYPT_COST: "4" })).rejects.toThrow(
      /cannot reach/,
    );
  });
});
