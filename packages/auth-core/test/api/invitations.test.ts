import { addUser, type SignedIn, setUpAdmin, signIn, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { linkOf, tokenOf } from "@domain-auth/test-support/mail-server";
import { beforeAll, describe, expect, it } from "vitest";
import { useInstance } from "../support/instance.js";
import { useMailInstance } from "../support/mail.js";

/**
 * Invitations (docs/mail.md): an administrator creates a user without a password; the user gets a
 * link to choose one, has no usable password until then, and is verified by using it.
 */

const CHOSEN = "the password I chose";

describe.each(BACKENDS)("invitations on $name", (backend) => {
  const test = useMailInstance(backend.create);
  let admin: SignedIn;
  let counter = 0;
  const freshEmail = (label: string) => `${label}-${++counter}@example.com`;
  const adminToken = async () => (await signIn(test.api, admin)).token;

  beforeAll(async () => {
    admin = await setUpAdmin(test.api);
  });

  it("creates the user with no usable password and mails a link to APP_URL/reset-password?token=…&invite=1", async () => {
    const email = freshEmail("invited");
    const created = await test.api.post("/api/user", { email, name: "Grace", role: "Editor" }, { token: await adminToken() });
    expect(created.status).toBe(201);
    expect(created.body.item).toMatchObject({ email, role: "Editor", emailVerified: false });
    const message = await test.mail.waitFor(email);
    expect(message.subject).toMatch(/invited/i);
    expect(`${message.text}${message.html}`).not.toContain("Grace");
    expect(message.text).toContain("for 7 days");
    const link = linkOf(message);
    expect(`${link.origin}${link.pathname}`).toBe("https://app.example.com/reset-password");
    expect(link.searchParams.get("invite")).toBe("1");

    for (const password of ["", TEST_PASSWORD, "x".repeat(8)]) {
      const refused = await test.api.post("/api/user/login", { email, password });
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe("INVALID_CREDENTIALS");
    }

    const accepted = await test.api.post("/api/user/reset-password", { token: tokenOf(message), password: CHOSEN });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ email, role: "Editor", emailVerified: true });
    expect((await test.api.post("/api/user/login", { email, password: CHOSEN })).status).toBe(200);
    expect((await test.api.post("/api/user/reset-password", { token: tokenOf(message), password: CHOSEN })).body.code).toBe(
      "INVALID_RESET_TOKEN",
    );
  });

  it("lets an invitation work for 7 days and no longer", async () => {
    const late = freshEmail("late");
    await test.api.post("/api/user", { email: late }, { token: await adminToken() });
    const lateToken = tokenOf(await test.mail.waitFor(late));
    test.advance(7 * 24 * 3600 + 1);
    expect((await test.api.post("/api/user/reset-password", { token: lateToken, password: CHOSEN })).body.code).toBe("INVALID_RESET_TOKEN");
    const inTime = freshEmail("in-time");
    await test.api.post("/api/user", { email: inTime }, { token: await adminToken() });
    const inTimeToken = tokenOf(await test.mail.waitFor(inTime));
    test.advance(6 * 24 * 3600);
    expect((await test.api.post("/api/user/reset-password", { token: inTimeToken, password: CHOSEN })).status).toBe(200);
  });

  it("is for the setup role only: anyone else still needs a password and the create permission", async () => {
    const editor = await addUser(test.api, await signIn(test.api, admin), { email: freshEmail("editor"), role: "Editor" });
    const refused = await test.api.post("/api/user", { email: freshEmail("by-editor") }, { token: editor.token });
    expect(refused.status).toBe(403);
  });

  it("still validates the rest of the body and refuses a taken email", async () => {
    const token = await adminToken();
    expect((await test.api.post("/api/user", { email: "not-an-email" }, { token })).body.code).toBe("INVALID_BODY");
    expect((await test.api.post("/api/user", { email: admin.email }, { token })).body.code).toBe("EMAIL_TAKEN");
  });
});

describe.each(BACKENDS)("no invitations without e-mail on $name", (backend) => {
  const instance = useInstance(backend.create);

  it("needs a password to create a user, and has no e-mail endpoints", async () => {
    const admin = await setUpAdmin(instance.api);
    const created = await instance.api.post("/api/user", { email: "someone@example.com" }, { token: admin.token });
    expect(created.status).toBe(400);
    expect(created.body.issues).toContainEqual({ path: ["password"], message: "is required" });
    for (const path of ["forgot-password", "reset-password", "verify-email", "resend-verification"]) {
      expect((await instance.api.post(`/api/user/${path}`, {})).status, path).toBe(404);
    }
  });
});
