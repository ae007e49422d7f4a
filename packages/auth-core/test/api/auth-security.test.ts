import { createHmac } from "node:crypto";
import { type SignedIn, setUpAdmin, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { TEST_SECRET } from "@domain-auth/test-support/domains";
import { findLeaks } from "@domain-auth/test-support/leaks";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { createTokenService } from "../../src/admin.js";
import { useInstance } from "../support/instance.js";

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

function forge(header: object, payload: object, key: string | null): string {
  const unsigned = `${encode(header)}.${encode(payload)}`;
  if (key === null) return `${unsigned}.`;
  const algorithm = { HS256: "sha256", HS384: "sha384", HS512: "sha512" }[(header as { alg: string }).alg] ?? "sha256";
  return `${unsigned}.${createHmac(algorithm, key).update(unsigned).digest("base64url")}`;
}

describe.each(BACKENDS)("token security on $name", (backend) => {
  const instance = useInstance(backend.create);
  let admin: SignedIn;
  let sid: string;
  beforeAll(async () => {
    admin = await setUpAdmin(instance.api);
    sid = String(decodeJwt(admin.token).sid);
  });

  const expectInvalidToken = async (token: string) => {
    const response = await instance.api.get("/api/user/me", { token });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(response.body.code).toBe("UNAUTHENTICATED");
  };

  /** The claims of a genuine ten-minute token of the administrator, for forging variants. */
  const adminClaims = () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: admin.id,
      email: "admin@example.com",
      role: "Admin",
      ver: 1,
      sid,
      iss: "blog",
      iat: now,
      exp: now + 600,
      jti: "j",
    };
    return { now, claims };
  };

  it("refuses forged and tampered tokens", async () => {
    const { now, claims } = adminClaims();
    await expectInvalidToken(forge({ alg: "none", typ: "JWT" }, claims, null));
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, claims, "another-secret-that-is-long-enough-too!!"));
    await expectInvalidToken(forge({ alg: "HS512", typ: "JWT" }, claims, TEST_SECRET));
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, { ...claims, iss: "other" }, TEST_SECRET));
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, { ...claims, exp: now - 1 }, TEST_SECRET));
    const { exp: _exp, ...withoutExp } = claims;
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, withoutExp, TEST_SECRET));
    const [header, , signature] = admin.token.split(".");
    await expectInvalidToken(`${header}.${encode({ ...claims, role: "Admin", sub: "someone-else" })}.${signature}`);
    await expectInvalidToken("x".repeat(100 * 1024));
  });

  it("accepts a correctly signed token with the right claims", async () => {
    const { claims } = adminClaims();
    expect((await instance.api.get("/api/user/me", { token: forge({ alg: "HS256", typ: "JWT" }, claims, TEST_SECRET) })).status).toBe(200);
  });

  it("refuses a correctly signed token without a session, with an unknown one, or with another user's", async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: admin.id, email: "admin@example.com", role: "Admin", ver: 1, iss: "blog", iat: now, exp: now + 600, jti: "j" };
    // Issued before sessions existed: no sid.
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, claims, TEST_SECRET));
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, { ...claims, sid: "no-such-session" }, TEST_SECRET));
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, { ...claims, sid: 42 }, TEST_SECRET));
    const other = await signUp(instance.api, { email: "other-session@example.com" });
    const otherSid = String(decodeJwt(other.token).sid);
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, { ...claims, sid: otherSid }, TEST_SECRET));
  });

  it("refuses a token that lives longer than AUTH_TOKEN_TTL, forged or issued before the TTL was lowered", async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: admin.id, email: "admin@example.com", role: "Admin", ver: 1, sid, iss: "blog", iat: now, jti: "j" };
    // The instance's TTL is the default, 3600 s: exactly that is accepted, a second more is not.
    expect(
      (await instance.api.get("/api/user/me", { token: forge({ alg: "HS256", typ: "JWT" }, { ...claims, exp: now + 3600 }, TEST_SECRET) }))
        .status,
    ).toBe(200);
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, { ...claims, exp: now + 3601 }, TEST_SECRET));
    await expectInvalidToken(forge({ alg: "HS256", typ: "JWT" }, { ...claims, exp: now + 10 * 365 * 24 * 3600 }, TEST_SECRET));
    const longLived = createTokenService({ secret: TEST_SECRET, issuer: "blog", ttlSeconds: 7200 });
    const old = await longLived.issue({ id: admin.id, email: "admin@example.com", role: "Admin", tokenVersion: 1, sessionId: sid });
    await expectInvalidToken(old.token);
  });

  it("refuses emails with invisible or bidirectional characters, which read like another account", async () => {
    for (const email of ["admin@example.com\u200b", "ad\u200bmin@example.com", "admin@exa\u202emple.com", "ad\u00admin@example.com"]) {
      const response = await instance.api.post("/api/user/register", { email, password: TEST_PASSWORD });
      expect(response.status, JSON.stringify(email)).toBe(400);
      expect(response.body).toMatchObject({
        code: "INVALID_BODY",
        issues: [{ path: ["email"], message: expect.stringContaining("invisible") }],
      });
    }
  });

  it("refuses an expired token with no clock leeway", async () => {
    let clock = Date.now();
    const tokens = createTokenService({ secret: TEST_SECRET, issuer: "blog", ttlSeconds: 60, now: () => clock });
    const issued = await tokens.issue({ id: admin.id, email: "admin@example.com", role: "Admin", tokenVersion: 1, sessionId: sid });
    clock += 59_000;
    expect(await tokens.verify(issued.token)).not.toBeNull();
    clock += 1_000;
    expect(await tokens.verify(issued.token)).toBeNull();
  });

  it("refuses a deleted user's token, also after a new account is created", async () => {
    const user = await signUp(instance.api, { email: "gone@example.com" });
    expect((await instance.api.delete(`/api/user/${user.id}`, { token: admin.token })).status).toBe(204);
    await expectInvalidToken(user.token);
    const next = await instance.api.post("/api/user/register", { email: "gone@example.com", password: TEST_PASSWORD });
    expect(next.status).toBe(201);
    expect(next.body.user.id).not.toBe(user.id);
    await expectInvalidToken(user.token);
  });

  it("refuses a token once the user's role changed, even after changing it back", async () => {
    const user = await signUp(instance.api, { email: "flip@example.com" });
    const toEditor = await instance.api.patch(`/api/user/${user.id}`, { role: "Editor" }, { token: admin.token });
    expect(toEditor.status).toBe(200);
    await expectInvalidToken(user.token);
    expect((await instance.api.patch(`/api/user/${user.id}`, { role: "Reader" }, { token: admin.token })).status).toBe(200);
    await expectInvalidToken(user.token);
    const fresh = await instance.api.post("/api/user/login", { email: "flip@example.com", password: TEST_PASSWORD });
    expect(fresh.body.user.role).toBe("Reader");
    expect((await instance.api.get("/api/user/me", { token: fresh.body.token })).status).toBe(200);
  });

  it("never lets register create an administrator", async () => {
    const response = await instance.api.post("/api/user/register", {
      email: "wannabe@example.com",
      password: TEST_PASSWORD,
      role: "Admin",
    });
    expect(response.body.user.role).toBe("Reader");
    const login = await instance.api.post("/api/user/login", { email: "wannabe@example.com", password: TEST_PASSWORD });
    expect((await instance.api.get("/api/user", { token: login.body.token })).body.total).toBe(1);
  });

  it("never returns a password or a hash from any endpoint", async () => {
    const responses = [
      await instance.api.post("/api/user/register", { email: "leak@example.com", password: TEST_PASSWORD }),
      await instance.api.post("/api/user/login", { email: "leak@example.com", password: TEST_PASSWORD }),
      await instance.api.get("/api/user/me", { token: admin.token }),
      await instance.api.get("/api/user", { token: admin.token }),
      await instance.api.get(`/api/user/${admin.id}`, { token: admin.token }),
      await instance.api.patch(`/api/user/${admin.id}`, { name: "Root" }, { token: admin.token }),
    ];
    for (const response of responses) {
      expect(response.status).toBeLessThan(300);
      expect(findLeaks(response)).toEqual([]);
    }
  });
});
