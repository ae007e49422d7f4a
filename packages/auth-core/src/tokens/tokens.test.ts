import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createTokenService } from "./tokens.js";

const secret = "a-secret-of-at-least-thirty-two-bytes!!";
const subject = { id: "u1", email: "a@b.io", role: "Admin", tokenVersion: 3, sessionId: "s1" };

describe("token service", () => {
  it("issues HS256 tokens with the documented claims (docs/api.md#tokens)", async () => {
    const tokens = createTokenService({ secret, issuer: "blog", ttlSeconds: 120, now: () => 1_700_000_000_000 });
    const issued = await tokens.issue(subject);
    expect(issued.tokenType).toBe("Bearer");
    expect(issued.expiresIn).toBe(120);
    expect(decodeProtectedHeader(issued.token).alg).toBe("HS256");
    const claims = decodeJwt(issued.token);
    expect(claims).toMatchObject({
      sub: "u1",
      email: "a@b.io",
      role: "Admin",
      ver: 3,
      sid: "s1",
      iss: "blog",
      iat: 1_700_000_000,
      exp: 1_700_000_120,
    });
    expect(typeof claims.jti).toBe("string");
    expect(await tokens.verify(issued.token)).toMatchObject({ sub: "u1", ver: 3 });
  });

  it("refuses tokens of another issuer or secret", async () => {
    const issued = await createTokenService({ secret, issuer: "other" }).issue(subject);
    expect(await createTokenService({ secret, issuer: "blog" }).verify(issued.token)).toBeNull();
    const foreign = await createTokenService({ secret: `${secret}-changed`, issuer: "blog" }).issue(subject);
    expect(await createTokenService({ secret, issuer: "blog" }).verify(foreign.token)).toBeNull();
  });

  it("gives unique token ids", async () => {
    const tokens = createTokenService({ secret, issuer: "blog" });
    const [a, b] = await Promise.all([tokens.issue(subject), tokens.issue(subject)]);
    expect(decodeJwt(a.token).jti).not.toBe(decodeJwt(b.token).jti);
  });

  it("refuses a token without a session id (issued before sessions)", async () => {
    const key = new TextEncoder().encode(secret);
    const old = await new SignJWT({ email: "a@b.io", role: "Admin", ver: 3 })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject("u1")
      .setIssuer("blog")
      .setIssuedAt()
      .setExpirationTime("1h")
      .setJti("j")
      .sign(key);
    expect(await createTokenService({ secret, issuer: "blog" }).verify(old)).toBeNull();
  });

  it("refuses a secret shorter than 32 bytes", () => {
    expect(() => createTokenService({ secret: "short", issuer: "blog" })).toThrow(/32 bytes/);
  });
});
