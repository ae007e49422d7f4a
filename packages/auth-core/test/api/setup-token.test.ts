import { ADMIN, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, createSqliteDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { describe, expect, it } from "vitest";
import type { EntityModel } from "../../src/config/index.js";
import type { Auth } from "../../src/index.js";
import { startInstance, useInstance } from "../support/instance.js";

const SETUP_TOKEN = "the-setup-token-the-operator-set";

function usersOf(auth: Auth): EntityModel {
  const entity = auth.model.auth?.entity;
  if (!entity) throw new Error("the test domain has no auth entity");
  return entity;
}

async function userCount(auth: Auth): Promise<number> {
  return (await auth.tools.store.list(usersOf(auth), { limit: 1, offset: 0, total: "exact" })).total ?? Number.NaN;
}

describe.each(BACKENDS)("setup with a setup token on $name", (backend) => {
  const instance = useInstance(backend.create, BLOG_YAML, { setupToken: SETUP_TOKEN });

  it("says so while setup is required", async () => {
    expect(instance.auth.setupTokenRequired).toBe(true);
    expect((await instance.api.get("/api/user/setup")).body).toEqual({ setupRequired: true, setupTokenRequired: true });
  });

  it("answers 403 without the token and writes nothing", async () => {
    const response = await instance.api.post("/api/user/setup", ADMIN);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: "FORBIDDEN", issues: [{ path: ["setupToken"], message: expect.any(String) }] });
    expect((await instance.api.get("/api/user/setup")).body.setupRequired).toBe(true);
    expect(await userCount(instance.auth)).toBe(0);
    expect((await instance.api.post("/api/user/login", ADMIN)).status).toBe(401);
  });

  it.each([
    ["a wrong token", "the-setup-token-the-operator-sez"],
    ["a prefix of it", SETUP_TOKEN.slice(0, 16)],
    ["it twice", SETUP_TOKEN + SETUP_TOKEN],
    ["it with a space", ` ${SETUP_TOKEN}`],
    ["an empty string", ""],
    ["null", null],
    ["a number", 42],
    ["it in an array", [SETUP_TOKEN]],
  ])("answers 403 to %s and writes nothing", async (_case, setupToken) => {
    const response = await instance.api.post("/api/user/setup", { ...ADMIN, setupToken });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("FORBIDDEN");
    expect(await userCount(instance.auth)).toBe(0);
  });

  it("checks the body first: 415, 413 and 400 come before 403", async () => {
    const wrong = { ...ADMIN, setupToken: "wrong" };
    const text = await instance.api.post("/api/user/setup", undefined, {
      raw: JSON.stringify(wrong),
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    const big = await instance.api.post("/api/user/setup", { ...wrong, name: "n".repeat(17 * 1024) });
    expect(big.status).toBe(413);
    const malformed = await instance.api.post("/api/user/setup", undefined, {
      raw: '{"setupToken": ',
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    const invalid = await instance.api.post("/api/user/setup", { email: "not-an-email", password: "short" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("INVALID_BODY");
    expect(await userCount(instance.auth)).toBe(0);
  });

  it("creates the administrator with the right token, which it neither echoes nor stores", async () => {
    const response = await instance.api.post("/api/user/setup", { ...ADMIN, setupToken: SETUP_TOKEN });
    expect(response.status, response.text).toBe(201);
    expect(response.body.user.role).toBe("Admin");
    expect(response.text).not.toContain(SETUP_TOKEN);
    expect(response.text).not.toContain("setupToken");
    const stored = await instance.auth.tools.store.findByEmail(usersOf(instance.auth), ADMIN.email);
    expect(JSON.stringify(stored)).not.toContain(SETUP_TOKEN);
    expect((await instance.api.post("/api/user/login", ADMIN)).status).toBe(200);
  });

  it("answers 409 once setup is complete, whatever the token, and stops asking for it", async () => {
    for (const setupToken of ["wrong", SETUP_TOKEN, undefined]) {
      const response = await instance.api.post("/api/user/setup", { email: "second@example.com", password: TEST_PASSWORD, setupToken });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe("SETUP_COMPLETE");
    }
    expect((await instance.api.get("/api/user/setup")).body).toEqual({ setupRequired: false });
    expect(await userCount(instance.auth)).toBe(1);
  });
});

describe.each(BACKENDS)("setup without a setup token on $name", (backend) => {
  it("stays anonymous: the status is unchanged and a setupToken key is ignored", async () => {
    const database = await backend.create();
    const { auth, api } = await startInstance(domainOf(BLOG_YAML), database.url, { setupToken: "" });
    try {
      expect(auth.setupTokenRequired).toBe(false);
      expect((await api.get("/api/user/setup")).body).toEqual({ setupRequired: true });
      const response = await api.post("/api/user/setup", { ...ADMIN, setupToken: "anything" });
      expect(response.status, response.text).toBe(201);
      expect(response.text).not.toContain("setupToken");
    } finally {
      await auth.close();
      await database.drop();
    }
  });
});

describe("a setup token and an auth entity with a setupToken field", () => {
  it("never stores the token in that field", async () => {
    const database = createSqliteDatabase();
    const yaml = BLOG_YAML.replace("      name: string\n", "      name: string\n      setupToken: string\n");
    const { auth, api } = await startInstance(domainOf(yaml), database.url, { setupToken: SETUP_TOKEN });
    try {
      const response = await api.post("/api/user/setup", { ...ADMIN, setupToken: SETUP_TOKEN });
      expect(response.status, response.text).toBe(201);
      expect(response.body.user.setupToken ?? null).toBeNull();
      expect(response.text).not.toContain(SETUP_TOKEN);
    } finally {
      await auth.close();
      await database.drop();
    }
  });
});

describe("the setupToken option", () => {
  it("is refused when shorter than 16 bytes", async () => {
    const database = createSqliteDatabase();
    try {
      await expect(startInstance(domainOf(BLOG_YAML), database.url, { setupToken: "short" })).rejects.toThrow(/16 bytes/);
    } finally {
      await database.drop();
    }
  });
});
