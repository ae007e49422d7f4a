import { createHmac, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { addUser, type SignedIn, setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { type Answer, call } from "@domain-auth/test-support/http-client";
import { base64url, decodeJwt, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { printFigures } from "./support/figures.js";
import { safetyProblems } from "./support/http.js";

/**
 * Forged, altered and odd tokens against the production server (docs/api.md#login, docs/api.md#tokens): each is refused with
 * 401 `UNAUTHENTICATED` and `WWW-Authenticate: Bearer error="invalid_token"` on a private route and on a
 * public one alike (a bad token is never anonymous), except lowercase `bearer` (accepted) and another
 * scheme (counts as absent).
 */

const SECRET = randomBytes(32).toString("base64url");
const ISSUER = "blog"; // the name of apps/web/domain.yaml
const key = new TextEncoder().encode(SECRET);

let app: RunningApp;
let admin: SignedIn;
let reader: SignedIn;
let jkuServer: Server;
let jkuHits = 0;
let jkuUrl: string;
const figures = { forged: 0, refused: 0, accepted: 0 };

beforeAll(async () => {
  // A key set the server could be tricked into fetching: it must never be asked.
  jkuServer = createServer((_request, response) => {
    jkuHits++;
    response.end("{}");
  });
  await new Promise<void>((resolve) => jkuServer.listen(0, "127.0.0.1", resolve));
  const address = jkuServer.address();
  jkuUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/jwks.json`;

  app = await startApp({ env: { AUTH_SECRET: SECRET } });
  admin = await setUpAdmin(app.url);
  reader = await addUser(app.url, admin, { email: "reader@example.com", password: "reader password 1" });
});

afterAll(async () => {
  printFigures("tokens.test.ts", {
    "forged tokens refused": `${figures.refused}/${figures.forged}`,
    "genuine variants accepted": figures.accepted,
    "key-set fetches": jkuHits,
  });
  await app?.stop();
  await new Promise((resolve) => jkuServer?.close(resolve));
});

/** The reader's real claims, to forge from. */
function claims(): Record<string, unknown> {
  return { ...decodeJwt(reader.token) };
}

function encode(part: unknown): string {
  return base64url.encode(JSON.stringify(part));
}

/** Signs `payload` under `header` with HMAC-SHA-256/384/512 and `secret`, by hand (any header goes). */
async function hmac(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  secret: Uint8Array,
  hash = "sha256",
): Promise<string> {
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${createHmac(hash, secret).update(input).digest("base64url")}`;
}

async function expectRefused(token: string, what: string): Promise<void> {
  figures.forged++;
  for (const path of ["/api/user/me", "/api/post"]) {
    const answer = await call(app.url, { path, token });
    expect(answer.status, `${what} on ${path}: ${answer.text}`).toBe(401);
    expect((answer.body as { code: string }).code).toBe("UNAUTHENTICATED");
    expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(safetyProblems(answer)).toEqual([]);
  }
  figures.refused++;
}

async function me(authorization: string): Promise<Answer> {
  return call(app.url, { path: "/api/user/me", headers: { authorization } });
}

describe("forged and altered tokens are refused", () => {
  const now = () => Math.floor(Date.now() / 1000);

  test("alg none, with and without a signature", async () => {
    const payload = { ...claims(), role: "Admin" };
    for (const alg of ["none", "None", "NONE", "nOnE"]) {
      await expectRefused(`${encode({ alg, typ: "JWT" })}.${encode(payload)}.`, `alg ${alg}`);
      await expectRefused(`${encode({ alg, typ: "JWT" })}.${encode(payload)}`, `alg ${alg} without the last dot`);
    }
    const [, , signature] = reader.token.split(".");
    await expectRefused(`${encode({ alg: "none" })}.${encode(claims())}.${signature}`, "alg none with the real signature");
  });

  test("HS384 and HS512 with the real secret, and HS256 with another secret", async () => {
    await expectRefused(await hmac({ alg: "HS384", typ: "JWT" }, claims(), key, "sha384"), "HS384");
    await expectRefused(await hmac({ alg: "HS512", typ: "JWT" }, claims(), key, "sha512"), "HS512");
    await expectRefused(await hmac({ alg: "HS256", typ: "JWT" }, claims(), randomBytes(32)), "HS256, another secret");
    await expectRefused(await hmac({ alg: "HS256", typ: "JWT" }, claims(), new Uint8Array()), "HS256, empty secret");
  });

  test("RS256 with the attacker's key, also embedded as jwk or offered by jku, and kid tricks", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = await exportJWK(publicKey);
    const rs256 = (header: Record<string, unknown>) =>
      new SignJWT({ ...claims(), role: "Admin" }).setProtectedHeader({ alg: "RS256", ...header }).sign(privateKey);
    await expectRefused(await rs256({}), "RS256");
    await expectRefused(await rs256({ jwk }), "RS256 with an embedded jwk");
    await expectRefused(await rs256({ jku: jkuUrl, kid: "attacker" }), "RS256 with jku");
    // The public key's bytes as an HMAC secret (the classic RS256 → HS256 confusion).
    await expectRefused(
      await hmac({ alg: "HS256", jwk }, claims(), new TextEncoder().encode(JSON.stringify(jwk))),
      "HS256 keyed by the embedded jwk",
    );
    for (const kid of ["../../../../../../dev/null", "' UNION SELECT 'key' --", "/proc/self/environ", ""]) {
      await expectRefused(
        await hmac({ alg: "HS256", kid }, { ...claims(), role: "Admin" }, new Uint8Array()),
        `kid ${kid} with an empty key`,
      );
      await expectRefused(await hmac({ alg: "HS256", kid }, { ...claims(), role: "Admin" }, new TextEncoder().encode("key")), `kid ${kid}`);
    }
    await expectRefused(await hmac({ alg: "HS256", jku: jkuUrl }, claims(), randomBytes(32)), "HS256 with jku");
    expect(jkuHits).toBe(0);
  });

  test("a changed payload under the original signature", async () => {
    const [header, , signature] = reader.token.split(".");
    for (const change of [
      { role: "Admin" },
      { sub: admin.id },
      { exp: now() + 10 * 365 * 24 * 3600 },
      { ver: 99 },
      { email: admin.email },
    ]) {
      await expectRefused(`${header}.${encode({ ...claims(), ...change })}.${signature}`, `payload changed by ${JSON.stringify(change)}`);
    }
    // The same claims re-encoded with another key order: the signature covers the exact bytes.
    const reordered = Object.fromEntries(Object.entries(claims()).reverse());
    await expectRefused(`${header}.${encode(reordered)}.${signature}`, "payload re-encoded");
  });

  test("claims rules, checked even on tokens signed with the real secret", async () => {
    const base = claims();
    expect(base.iss).toBe(ISSUER);
    const without = (name: string) => Object.fromEntries(Object.entries(base).filter(([claim]) => claim !== name));
    const header = { alg: "HS256", typ: "JWT" };
    await expectRefused(await hmac(header, without("exp"), key), "no exp");
    await expectRefused(await hmac(header, without("iat"), key), "no iat");
    await expectRefused(await hmac(header, without("sub"), key), "no sub");
    await expectRefused(await hmac(header, without("sid"), key), "no sid (issued before sessions)");
    await expectRefused(await hmac(header, { ...base, sid: "another-session" }, key), "an unknown session");
    await expectRefused(await hmac(header, { ...base, exp: now() - 1 }, key), "expired a second ago");
    await expectRefused(await hmac(header, { ...base, nbf: now() + 3600 }, key), "nbf in an hour");
    await expectRefused(await hmac(header, { ...base, iat: now() + 3600, exp: now() + 7200 }, key), "iat in an hour");
    await expectRefused(await hmac(header, { ...base, iss: "another-service" }, key), "wrong iss");
    await expectRefused(await hmac(header, without("iss"), key), "no iss");
    await expectRefused(await hmac(header, { ...base, exp: String(base.exp) }, key), "exp as a string");
    await expectRefused(await hmac(header, { ...base, role: "Admin" }, key), "a role the user does not hold");
    await expectRefused(await hmac(header, { ...base, ver: Number(base.ver) + 1 }, key), "another token version");
    await expectRefused(await hmac({ ...header, crit: ["exp"] }, base, key), "crit header");
    await expectRefused(await hmac({ ...header, b64: false, crit: ["b64"] }, base, key), "unencoded payload");
  });

  test("oversized and malformed tokens", async () => {
    await expectRefused(`${reader.token}${"A".repeat(10_000)}`, "a 10 KB token");
    await expectRefused(`${encode({ alg: "HS256" })}.${base64url.encode(randomBytes(7_000))}.${"A".repeat(43)}`, "a 9 KB random payload");
    for (const token of ["a.b.c", "..", "a.b", "a.b.c.d.e", reader.token.replace(/\./g, ""), `${reader.token}.`, ` ${reader.token}x`]) {
      await expectRefused(token, `malformed ${token.slice(0, 20)}`);
    }
    // 100 KB: over Node.js's 16 KiB header limit, refused before any handler with the error body.
    figures.forged++;
    const answer = await me(`Bearer ${"A".repeat(100 * 1024)}`).catch((error: unknown) => {
      throw new Error(`a 100 KB token got no answer: ${(error as Error).cause ?? error}`);
    });
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ code: "HEADERS_TOO_LARGE", message: expect.any(String) });
    figures.refused++;
    expect((await me(`Bearer ${reader.token}`)).status).toBe(200);
  });

  test("a token of a deleted user is refused, and ids are not reused", async () => {
    const gone = await addUser(app.url, admin, { email: "gone@example.com", password: "gone password 1" });
    expect((await call(app.url, { method: "DELETE", path: `/api/user/${gone.id}`, token: admin.token })).status).toBe(204);
    await expectRefused(gone.token, "a deleted user's token");
    const again = await addUser(app.url, admin, { email: "gone@example.com", password: "gone password 1" });
    expect(again.id).not.toBe(gone.id);
    await expectRefused(gone.token, "a deleted user's token after the email is registered again");
  });
});

describe("schemes", () => {
  test("the scheme is case-insensitive: lowercase bearer is accepted", async () => {
    for (const scheme of ["bearer", "BEARER", "Bearer", "bEaReR"]) {
      const answer = await me(`${scheme} ${reader.token}`);
      expect(answer.status, scheme).toBe(200);
      expect((answer.body as { user: { email: string } }).user.email).toBe(reader.email);
      figures.accepted++;
    }
  });

  test("Basic and other schemes count as absent: 401 without invalid_token on private routes, anonymous on public ones", async () => {
    const basic = `Basic ${Buffer.from(`${admin.email}:${admin.password}`).toString("base64")}`;
    for (const authorization of [basic, `Token ${admin.token}`, `Digest ${admin.token}`, `JWT ${admin.token}`]) {
      const answer = await me(authorization);
      expect(answer.status, authorization).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe("Bearer");
      expect(safetyProblems(answer)).toEqual([]);
      const open = await call(app.url, { path: "/api/post", headers: { authorization } });
      expect(open.status, `${authorization} on a public route`).toBe(200);
      const users = await call(app.url, { path: "/api/user", headers: { authorization } });
      expect(users.status).toBe(401);
    }
  });

  test("Bearer with no token is a bad token, not an anonymous caller", async () => {
    for (const authorization of ["Bearer", "Bearer ", "bearer   "]) {
      const answer = await call(app.url, { path: "/api/post", headers: { authorization } });
      expect(answer.status, JSON.stringify(authorization)).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    }
  });
});
