import { type SignedIn, setUpAdmin, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, createSqliteDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { beforeAll, describe, expect, it } from "vitest";
import { startInstance, useInstance } from "../support/instance.js";

function expectErrorBody(body: unknown, code: string): void {
  expect(body).toMatchObject({ code, message: expect.any(String) });
  expect(Object.keys(body as object).every((key) => ["code", "message", "issues"].includes(key))).toBe(true);
}

describe.each(BACKENDS)("auth endpoints on $name", (backend) => {
  const instance = useInstance(backend.create);
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await setUpAdmin(instance.api);
  });

  describe("register", () => {
    it("creates a user with the default role and answers 201 with the profile", async () => {
      const response = await instance.api.post("/api/user/register", { email: "reader@example.com", password: TEST_PASSWORD, name: "Rea" });
      expect(response.status).toBe(201);
      expect(response.body.user).toEqual({
        id: expect.any(String),
        email: "reader@example.com",
        name: "Rea",
        role: "Reader",
        emailVerified: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it("ignores role, id and passwordHash in the body", async () => {
      const response = await instance.api.post("/api/user/register", {
        email: "sneaky@example.com",
        password: TEST_PASSWORD,
        role: "Admin",
        id: "chosen",
        passwordHash: "$2a$04$x",
        tokenVersion: 99,
      });
      expect(response.status).toBe(201);
      expect(response.body.user.role).toBe("Reader");
      expect(response.body.user.id).not.toBe("chosen");
      const login = await instance.api.post("/api/user/login", { email: "sneaky@example.com", password: TEST_PASSWORD });
      expect(login.status).toBe(200);
    });

    it("treats case, spacing and NFKC variants of an email as one account", async () => {
      const first = await instance.api.post("/api/user/register", { email: "Alice@X.io", password: TEST_PASSWORD });
      expect(first.status).toBe(201);
      expect(first.body.user.email).toBe("alice@x.io");
      for (const variant of [" alice@x.io ", "ALICE@x.IO", "ａｌｉｃｅ@x.io"]) {
        const again = await instance.api.post("/api/user/register", { email: variant, password: TEST_PASSWORD });
        expect(again.status, variant).toBe(409);
        expectErrorBody(again.body, "EMAIL_TAKEN");
      }
      const login = await instance.api.post("/api/user/login", { email: "ＡＬＩＣＥ@X.IO", password: TEST_PASSWORD });
      expect(login.status).toBe(200);
    });

    it.each([
      ["no at", "alice.example.com"],
      ["two ats", "a@b@example.com"],
      ["empty local part", "@example.com"],
      ["no dot in domain", "alice@localhost"],
      ["inner space", "ali ce@example.com"],
      ["control character", "ali\u0007ce@example.com"],
      ["too long", `${"a".repeat(250)}@example.com`],
    ])("refuses an email with %s", async (_case, email) => {
      const response = await instance.api.post("/api/user/register", { email, password: TEST_PASSWORD });
      expect(response.status).toBe(400);
      expectErrorBody(response.body, "INVALID_BODY");
      expect(response.body.issues[0].path).toEqual(["email"]);
    });

    it.each([
      ["7 bytes", "1234567"],
      ["73 bytes", "x".repeat(73)],
      ["37 two-byte characters (74 bytes)", "é".repeat(37)],
      ["a NUL character", "password\u0000x"],
    ])("refuses a password of %s", async (_case, password) => {
      const response = await instance.api.post("/api/user/register", { email: `p${password.length}@example.com`, password });
      expect(response.status).toBe(400);
      expect(response.body.issues[0].path).toEqual(["password"]);
    });

    it("accepts passwords of exactly 8 characters and 72 bytes", async () => {
      for (const password of ["x7#Lq9!v", `${"x7#Lq9!vR2".repeat(7)}ab`]) {
        const email = `len${password.length}@example.com`;
        expect((await instance.api.post("/api/user/register", { email, password })).status).toBe(201);
        expect((await instance.api.post("/api/user/login", { email, password })).status).toBe(200);
      }
    });

    it("reports every missing or mistyped field", async () => {
      const response = await instance.api.post("/api/user/register", { email: 42 });
      expect(response.status).toBe(400);
      const paths = response.body.issues.map((issue: { path: string[] }) => issue.path.join("."));
      expect(paths).toEqual(expect.arrayContaining(["email", "password"]));
    });
  });

  describe("login", () => {
    it("returns a bearer token, its lifetime and the profile, never cached", async () => {
      const response = await instance.api.post("/api/user/login", { email: "admin@example.com", password: TEST_PASSWORD });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        token: expect.any(String),
        tokenType: "Bearer",
        expiresIn: 3600,
        user: { email: "admin@example.com", role: "Admin" },
      });
      expect(response.headers.get("cache-control")).toContain("no-store");
      const [, payload] = response.body.token.split(".");
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
      expect(claims).toMatchObject({ sub: admin.id, email: "admin@example.com", role: "Admin", iss: "blog", ver: 1 });
      expect(claims.exp - claims.iat).toBe(response.body.expiresIn);
      expect(claims.jti).toEqual(expect.any(String));
    });

    it("answers unknown email and wrong password with the same 401 body", async () => {
      const unknown = await instance.api.post("/api/user/login", { email: "nobody@example.com", password: TEST_PASSWORD });
      const wrong = await instance.api.post("/api/user/login", { email: "admin@example.com", password: "wrong password" });
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(unknown.text).toBe(wrong.text);
      expectErrorBody(unknown.body, "INVALID_CREDENTIALS");
    });

    it("refuses a password over 72 bytes without truncating it", async () => {
      const email = "long72@example.com";
      const password = `${"x7#Lq9!vR2".repeat(7)}yz`;
      expect((await instance.api.post("/api/user/register", { email, password })).status).toBe(201);
      const longer = await instance.api.post("/api/user/login", { email, password: `${password}extra` });
      expect(longer.status).toBe(401);
      expectErrorBody(longer.body, "INVALID_CREDENTIALS");
    });

    it("answers a malformed body with 400", async () => {
      expect((await instance.api.post("/api/user/login", { email: "admin@example.com" })).status).toBe(400);
      expect((await instance.api.post("/api/user/login", { email: ["a"], password: TEST_PASSWORD })).status).toBe(400);
    });
  });

  describe("me", () => {
    it("returns the caller's profile", async () => {
      const response = await instance.api.get("/api/user/me", { token: admin.token });
      expect(response.status).toBe(200);
      expect(response.body.user).toMatchObject({ id: admin.id, email: "admin@example.com", role: "Admin" });
    });

    it("accepts the scheme in any case", async () => {
      const response = await instance.api.get("/api/user/me", { headers: { authorization: `bearer ${admin.token}` } });
      expect(response.status).toBe(200);
    });

    it("asks for a token when there is none, or another scheme", async () => {
      for (const headers of [{}, { authorization: "Basic YWRtaW46cGFzc3dvcmQ=" }] as Record<string, string>[]) {
        const response = await instance.api.get("/api/user/me", { headers });
        expect(response.status).toBe(401);
        expect(response.headers.get("www-authenticate")).toBe("Bearer");
        expectErrorBody(response.body, "UNAUTHENTICATED");
      }
    });

    it("refuses a bad token with invalid_token", async () => {
      for (const token of ["garbage", `${admin.token}x`, ""]) {
        const response = await instance.api.get("/api/user/me", { headers: { authorization: `Bearer ${token}` } });
        expect(response.status, token).toBe(401);
        expect(response.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
      }
    });

    it("refuses a bad token even on an open route and on login", async () => {
      expect((await instance.api.get("/api/post", { token: "garbage" })).status).toBe(401);
      expect(
        (await instance.api.post("/api/user/login", { email: "admin@example.com", password: TEST_PASSWORD }, { token: "garbage" })).status,
      ).toBe(401);
    });
  });

  describe("setup", () => {
    it("reports that setup is done and answers 409 before reading the body", async () => {
      expect((await instance.api.get("/api/user/setup")).body).toEqual({ setupRequired: false });
      const response = await instance.api.post("/api/user/setup", undefined, {
        raw: "not json",
        headers: { "content-type": "text/plain" },
      });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ code: "SETUP_COMPLETE", message: "Setup already complete" });
    });
  });

  describe("request handling", () => {
    it("answers 415 without a JSON content type", async () => {
      const response = await instance.api.post("/api/user/register", undefined, { raw: "{}", headers: { "content-type": "text/plain" } });
      expect(response.status).toBe(415);
      expectErrorBody(response.body, "UNSUPPORTED_MEDIA_TYPE");
    });

    it("answers 413 over 16 KiB, declared or streamed", async () => {
      const big = JSON.stringify({ email: "big@example.com", password: TEST_PASSWORD, name: "n".repeat(17 * 1024) });
      const declared = await instance.api.post("/api/user/register", undefined, {
        raw: big,
        headers: { "content-type": "application/json" },
      });
      expect(declared.status).toBe(413);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      });
      const streamed = await instance.auth.handle(
        new Request("http://localhost/api/user/register", {
          method: "POST",
          body: stream,
          headers: { "content-type": "application/json" },
          duplex: "half",
        } as RequestInit),
      );
      expect(streamed.status).toBe(413);
    });

    it("answers 400 for malformed JSON and non-object bodies", async () => {
      for (const raw of ['{"email": ', "[]", "null", "42", "\u00ff"]) {
        const response = await instance.api.post("/api/user/register", undefined, { raw, headers: { "content-type": "application/json" } });
        expect(response.status, raw).toBe(400);
        expectErrorBody(response.body, "INVALID_BODY");
      }
    });

    it("answers HEAD like GET, without a body", async () => {
      const head = await instance.api.call("HEAD", "/api/user/setup");
      expect(head.status).toBe(200);
      expect(head.text).toBe("");
      expect(head.headers.get("content-type")).toContain("application/json");
      const unauthenticated = await instance.api.call("HEAD", "/api/user/me");
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.text).toBe("");
      expect((await instance.api.call("HEAD", "/api/user/login")).status).toBe(405);
    });

    it("answers 405 with Allow for a wrong method and 404 for unknown routes", async () => {
      const wrong = await instance.api.get("/api/user/login");
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get("allow")).toBe("POST");
      expectErrorBody(wrong.body, "METHOD_NOT_ALLOWED");
      for (const path of ["/api/nothing", "/api/user/me/more", "/elsewhere", "/api/%E0%A4%A"]) {
        const response = await instance.api.get(path);
        expect(response.status, path).toBe(404);
        expectErrorBody(response.body, "NOT_FOUND");
      }
    });
  });
});

describe("disabled endpoints and auth none", () => {
  it("answers 404 for every method of a disabled endpoint", async () => {
    const database = createSqliteDatabase();
    const yaml = BLOG_YAML.replace(
      "endpoints: { login: true, register: true, me: true, setup: true }",
      "endpoints: { register: false, me: false }",
    );
    const { auth, api } = await startInstance(domainOf(yaml), database.url);
    try {
      for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
        expect((await api.call(method, "/api/user/register")).status).toBe(404);
        expect((await api.call(method, "/api/user/me")).status).toBe(404);
      }
      expect((await api.get("/api/user/setup")).status).toBe(200);
    } finally {
      await auth.close();
      await database.drop();
    }
  });

  it("has no auth endpoints under auth.type none", async () => {
    const database = createSqliteDatabase();
    const yaml = "name: open\nentities:\n  Note:\n    fields: { text: string }\nauth: { type: none }\n";
    const { auth, api } = await startInstance(domainOf(yaml), database.url);
    try {
      for (const path of ["/api/user/login", "/api/user/setup", "/api/user/me"]) expect((await api.post(path, {})).status).toBe(404);
      const created = await api.post("/api/note", { text: "hi" }, { token: "ignored-garbage" });
      expect(created.status).toBe(201);
    } finally {
      await auth.close();
      await database.drop();
    }
  });
});
