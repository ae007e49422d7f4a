import { createHash } from "node:crypto";
import { setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { linkOf, tokenOf } from "@domain-auth/test-support/mail-server";
import { beforeAll, describe, expect, it } from "vitest";
import { useMailInstance } from "../support/mail.js";

/**
 * Forgot and reset password by e-mail (docs/mail.md) on both databases, against a real SMTP server:
 * the link, the tokens at rest, single use under concurrency, superseded and expired links, what a
 * reset does to sessions, locks and verification, and the order of checks.
 */

const NEW_PASSWORD = "a brand new passphrase";

describe.each(BACKENDS)("password reset on $name", (backend) => {
  const test = useMailInstance(backend.create);
  let counter = 0;
  const freshEmail = (label: string) => `${label}-${++counter}@example.com`;

  async function requestReset(email: string, count = 1): Promise<string> {
    const answer = await test.api.post("/api/user/forgot-password", { email });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({});
    return tokenOf(await test.mail.waitFor(email, { count }));
  }

  beforeAll(async () => {
    await setUpAdmin(test.api);
  });

  it("mails a known user a link to APP_URL/reset-password whose token is stored only as its SHA-256", async () => {
    const email = freshEmail("link");
    await signUp(test.api, { email, name: "Ada" });
    await test.api.post("/api/user/forgot-password", { email: ` ${email.toUpperCase()} ` });
    const message = await test.mail.waitFor(email);
    expect(message.from).toContain("no-reply@app.example.com");
    const link = linkOf(message);
    expect(`${link.origin}${link.pathname}`).toBe("https://app.example.com/reset-password");
    const token = tokenOf(message);
    expect(Buffer.from(token, "base64url").byteLength).toBeGreaterThanOrEqual(32);
    expect(message.html).toContain(`href="https://app.example.com/reset-password?token=${token}"`);
    expect(message.text).toContain("Hello,");
    expect(message.text).toContain("for 30 minutes");

    const rows = await test.database.db.selectFrom("domain_auth_tokens").selectAll().execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(token);
    expect(rows.map((row) => row.tokenHash)).toContain(createHash("sha256").update(token).digest("base64url"));
  });

  it("signs in with cookies when asked (docs/api.md#cookie-sessions), from the app's own origin only", async () => {
    const email = freshEmail("cookie");
    await signUp(test.api, { email });
    const token = await requestReset(email);
    const body = { token, password: NEW_PASSWORD, transport: "cookie" };
    const crossSite = await test.api.post("/api/user/reset-password", body, {
      headers: { origin: "https://evil.example", host: "localhost" },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.code).toBe("FORBIDDEN_ORIGIN");
    const answer = await test.api.post("/api/user/reset-password", body, { headers: { origin: "http://localhost", host: "localhost" } });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty("token");
    expect(answer.body.user.email).toBe(email);
    const cookies = answer.headers.getSetCookie();
    expect(cookies.map((line) => line.split("=")[0]).sort()).toEqual(["domain-auth.refresh-token", "domain-auth.token"]);
    const access = cookies.find((line) => line.startsWith("domain-auth.token="))?.split(";")[0] ?? "";
    expect((await test.api.get("/api/user/me", { headers: { cookie: access } })).body.user.email).toBe(email);
  });

  it("puts nothing a user typed into reset and confirmation messages to their address", async () => {
    // Someone who registers another person's address must not get their own words into a genuine message to them.
    const email = freshEmail("typed");
    const name = "Click http://evil.example/x\n\nNew text";
    await signUp(test.api, { email, name });
    await test.api.post("/api/user/forgot-password", { email });
    await test.api.post("/api/user/resend-verification", { email });
    const messages = [await test.mail.waitFor(email), await test.mail.waitFor(email, { count: 2 })];
    expect(messages.map((message) => message.subject).sort()).toEqual(["Confirm your blog email address", "Reset your blog password"]);
    for (const message of messages) {
      for (const part of [message.text, message.html]) {
        expect(part).not.toMatch(/evil\.example|Click|New text/);
        expect(part).toContain("Hello,");
      }
    }
  });

  it("answers 202 {} for an unknown email and sends nothing", async () => {
    const email = freshEmail("unknown");
    const answer = await test.api.post("/api/user/forgot-password", { email });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(test.mail.to(email)).toEqual([]);
  });

  it("signs in with the new password, revoking every earlier session, lifting the login lock and confirming the email", async () => {
    const email = freshEmail("reset");
    const before = await signUp(test.api, { email });
    const second = await signIn(test.api, { email });
    for (let attempt = 0; attempt < 5; attempt++) await test.api.post("/api/user/login", { email, password: "wrong password" });
    expect((await test.api.post("/api/user/login", { email, password: TEST_PASSWORD })).status).toBe(429);

    const token = await requestReset(email);
    const reset = await test.api.post("/api/user/reset-password", { token, password: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    expect(reset.headers.get("cache-control")).toBe("no-store");
    expect(reset.body).toMatchObject({ tokenType: "Bearer", user: { email, emailVerified: true } });
    expect(typeof reset.body.refreshToken).toBe("string");
    expect(JSON.stringify(reset.body)).not.toMatch(/passwordHash|tokenHash/);
    expect((await test.api.get("/api/user/me", { token: reset.body.token })).status).toBe(200);

    for (const old of [before, second]) {
      expect((await test.api.get("/api/user/me", { token: old.token })).status).toBe(401);
      expect((await test.api.post("/api/user/refresh", { refreshToken: old.refreshToken })).status).toBe(401);
    }
    expect((await test.api.post("/api/user/login", { email, password: TEST_PASSWORD })).body.code).toBe("INVALID_CREDENTIALS");
    expect((await test.api.post("/api/user/login", { email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("takes a token once: used again it is 400 INVALID_RESET_TOKEN", async () => {
    const email = freshEmail("once");
    await signUp(test.api, { email });
    const token = await requestReset(email);
    expect((await test.api.post("/api/user/reset-password", { token, password: NEW_PASSWORD })).status).toBe(200);
    const again = await test.api.post("/api/user/reset-password", { token, password: "yet another passphrase" });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVALID_RESET_TOKEN");
    expect((await test.api.post("/api/user/login", { email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("lets exactly one of many simultaneous uses of a token through", async () => {
    const email = freshEmail("race");
    await signUp(test.api, { email });
    const token = await requestReset(email);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => test.api.post("/api/user/reset-password", { token, password: `${NEW_PASSWORD} ${index}` })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    const winner = answers.findIndex((answer) => answer.status === 200);
    expect((await test.api.post("/api/user/login", { email, password: `${NEW_PASSWORD} ${winner}` })).status).toBe(200);
  });

  it("keeps only the newest link valid", async () => {
    const email = freshEmail("newest");
    await signUp(test.api, { email });
    const first = await requestReset(email, 1);
    const second = await requestReset(email, 2);
    expect(second).not.toBe(first);
    const old = await test.api.post("/api/user/reset-password", { token: first, password: NEW_PASSWORD });
    expect(old.body.code).toBe("INVALID_RESET_TOKEN");
    expect((await test.api.post("/api/user/reset-password", { token: second, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("lets a link work for 30 minutes and no longer", async () => {
    const email = freshEmail("expiry");
    await signUp(test.api, { email });
    const token = await requestReset(email);
    test.advance(30 * 60 + 1);
    const late = await test.api.post("/api/user/reset-password", { token, password: NEW_PASSWORD });
    expect(late.body.code).toBe("INVALID_RESET_TOKEN");
    const fresh = await requestReset(email, 2);
    test.advance(29 * 60);
    expect((await test.api.post("/api/user/reset-password", { token: fresh, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("refuses a link sent before the user's email changed", async () => {
    const email = freshEmail("moved");
    const user = await signUp(test.api, { email });
    const token = await requestReset(email);
    const changed = await test.api.patch(
      `/api/user/${user.id}`,
      { email: freshEmail("moved-to"), currentPassword: TEST_PASSWORD },
      { token: user.token },
    );
    expect(changed.status).toBe(200);
    expect((await test.api.post("/api/user/reset-password", { token, password: NEW_PASSWORD })).body.code).toBe("INVALID_RESET_TOKEN");
  });

  it("leaves a hostile name out of the message and keeps the link on APP_URL", async () => {
    const email = freshEmail("hostile");
    const name = `<img src=x onerror="alert(1)"><a href="https://evil.example">click</a>`;
    await signUp(test.api, { email, name });
    await test.api.post("/api/user/forgot-password", { email }, { headers: { host: "evil.example", "x-forwarded-host": "evil.example" } });
    const message = await test.mail.waitFor(email);
    expect(message.html).not.toContain("<img");
    expect(message.html).not.toContain('href="https://evil.example');
    expect(`${message.text}${message.html}`).not.toMatch(/img|alert|evil\.example/);
    expect(linkOf(message).origin).toBe("https://app.example.com");
  });

  it("answers malformed bodies 400 INVALID_BODY and unknown tokens 400 INVALID_RESET_TOKEN", async () => {
    for (const body of [{}, { email: "not-an-email" }, { email: 42 }, { email: "a@b.c\u202e" }]) {
      const answer = await test.api.post("/api/user/forgot-password", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe("INVALID_BODY");
    }
    for (const body of [{ password: NEW_PASSWORD }, { token: "x", password: "short" }, { token: 5, password: NEW_PASSWORD }]) {
      const answer = await test.api.post("/api/user/reset-password", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe("INVALID_BODY");
    }
    for (const token of ["nope", "x".repeat(43), "y".repeat(2000).slice(0, 1024)]) {
      const answer = await test.api.post("/api/user/reset-password", { token, password: NEW_PASSWORD });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe("INVALID_RESET_TOKEN");
    }
  });

  it("checks in the documented order (docs/api.md#errors-in-the-order-they-are-checked): method, bad token, content type, body", async () => {
    expect((await test.api.get("/api/user/forgot-password")).status).toBe(405);
    expect((await test.api.get("/api/user/reset-password")).headers.get("allow")).toBe("POST");
    const badToken = await test.api.post("/api/user/forgot-password", {}, { token: "not-a-token" });
    expect(badToken.status).toBe(401);
    const wrongType = await test.api.post("/api/user/forgot-password", undefined, {
      raw: JSON.stringify({ email: "a@example.com" }),
      headers: { "content-type": "text/plain" },
    });
    expect(wrongType.status).toBe(415);
  });
});

describe.each(BACKENDS)("password reset switched off on $name", (backend) => {
  const yaml = BLOG_YAML.replace(
    "endpoints: { login: true, register: true, me: true, setup: true }",
    "endpoints: { passwordReset: false }",
  );
  const test = useMailInstance(backend.create, yaml);

  it("answers 404 for forgot-password and reset-password with auth.endpoints.passwordReset: false", async () => {
    for (const path of ["forgot-password", "reset-password"]) {
      const answer = await test.api.post(`/api/user/${path}`, { email: "a@example.com" });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe("NOT_FOUND");
    }
    expect(test.auth.endpoints).toMatchObject({ passwordReset: false, verifyEmail: true });
  });
});
