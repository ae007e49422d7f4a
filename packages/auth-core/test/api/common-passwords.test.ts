import { setUpAdmin, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { tokenOf } from "@domain-auth/test-support/mail-server";
import { describe, expect, it } from "vitest";
import { COMMON_PASSWORD_PROBLEM } from "../../src/password/rules.js";
import { useMailInstance } from "../support/mail.js";

/**
 * Every password the server accepts, wherever one is set (setup, register, reset, a change of one's
 * own, an administrator's), is refused when it is among the most common ones: 400 INVALID_BODY with
 * an issue on `password` naming the rule; nothing is written.
 */

const COMMON = ["password", "12345678", "qwertyuiop", "Password1"] as const;

/** The answer refuses `password` for the common-password rule. */
function expectRefused(answer: { status: number; body: Record<string, unknown> }): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body).toMatchObject({ code: "INVALID_BODY", issues: [{ path: ["password"], message: COMMON_PASSWORD_PROBLEM }] });
}

describe.each(BACKENDS)("common passwords on $name", (backend) => {
  const test = useMailInstance(backend.create);

  it("are refused at setup, which stays open; an uncommon one then sets up", async () => {
    for (const password of COMMON) expectRefused(await test.api.post("/api/user/setup", { email: "admin@example.com", password }));
    expect((await test.api.get("/api/user/setup")).body).toMatchObject({ setupRequired: true });
    await setUpAdmin(test.api);
  });

  it("are refused at register, and no account is made", async () => {
    for (const password of COMMON) expectRefused(await test.api.post("/api/user/register", { email: "common@example.com", password }));
    expect((await test.api.post("/api/user/login", { email: "common@example.com", password: "password" })).status).toBe(401);
  });

  it("are refused as one's own new password and as the password an administrator sets", async () => {
    const admin = await test.api.post("/api/user/login", { email: "admin@example.com", password: TEST_PASSWORD });
    const user = await signUp(test.api, { email: "changer@example.com" });
    for (const password of COMMON) {
      expectRefused(await test.api.patch(`/api/user/${user.id}`, { password, currentPassword: TEST_PASSWORD }, { token: user.token }));
      expectRefused(await test.api.patch(`/api/user/${user.id}`, { password }, { token: admin.body.token as string }));
    }
    expect((await test.api.post("/api/user/login", { email: user.email, password: TEST_PASSWORD })).status).toBe(200);
  });

  it("are refused at reset-password, and the link still works for an uncommon one", async () => {
    const user = await signUp(test.api, { email: "forgetful@example.com" });
    await test.api.post("/api/user/forgot-password", { email: user.email });
    const token = tokenOf(await test.mail.waitFor(user.email));
    for (const password of COMMON) expectRefused(await test.api.post("/api/user/reset-password", { token, password }));
    expect((await test.api.post("/api/user/reset-password", { token, password: "a much less common one" })).status).toBe(200);
  });
});
