import { signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { createSqliteDatabase } from "@domain-auth/test-support/databases";
import { describe, expect, it } from "vitest";
import { useInstance } from "../test/support/instance.js";
import { ensureAdministrator } from "./admin-commands.js";

describe("ensureAdministrator", () => {
  const instance = useInstance(createSqliteDatabase);

  it("creates an administrator on an empty store, closing setup", async () => {
    const result = await ensureAdministrator(instance.auth, { email: " Root@Example.com", password: TEST_PASSWORD });
    expect(result.action).toBe("created");
    expect(result.user).toMatchObject({ email: "root@example.com", role: "Admin" });
    expect(JSON.stringify(result.user)).not.toMatch(/password/i);
    expect(await instance.auth.isSetupRequired()).toBe(false);
    const login = await instance.api.post("/api/user/login", { email: "root@example.com", password: TEST_PASSWORD });
    expect(login.body.user.role).toBe("Admin");
  });

  it("promotes an existing user with a new password and retires their tokens", async () => {
    const admin = await instance.api.post("/api/user/login", { email: "root@example.com", password: TEST_PASSWORD });
    const member = await signUp(instance.api, { email: "member@example.com" });
    const result = await ensureAdministrator(instance.auth, { email: "member@example.com", password: "a brand new password" });
    expect(result.action).toBe("promoted");
    expect((await instance.api.get("/api/user/me", { token: member.token })).status).toBe(401);
    const login = await instance.api.post("/api/user/login", { email: "member@example.com", password: "a brand new password" });
    expect(login.body.user.role).toBe("Admin");
    expect(admin.status).toBe(200);
  });

  it("refuses a weak password or a bad email", async () => {
    await expect(ensureAdministrator(instance.auth, { email: "x@example.com", password: "short" })).rejects.toThrow(/password/);
    await expect(ensureAdministrator(instance.auth, { email: "nope", password: TEST_PASSWORD })).rejects.toThrow(/email/);
  });

  it("leaves setup closed for good", async () => {
    const setup = await instance.api.post("/api/user/setup", { email: "late@example.com", password: TEST_PASSWORD });
    expect(setup.status).toBe(409);
  });
});
