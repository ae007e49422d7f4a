import { type SignedIn, setUpAdmin, signIn, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { linkOf, tokenOf } from "@domain-auth/test-support/mail-server";
import { beforeAll, describe, expect, it } from "vitest";
import { useMailInstance } from "../support/mail.js";

/**
 * Verified e-mails (docs/mail.md) with `auth.verifyEmail: true`, on both databases, against a real
 * SMTP server: the link register sends, sign-in refused only after a right password until it is
 * used, single use, resend and superseded links, expiry, and an email change.
 */

const VERIFYING_YAML = BLOG_YAML.replace("  endpoints: { login: true, register: true, me: true, setup: true }", "  verifyEmail: true");

describe.each(BACKENDS)("email verification on $name", (backend) => {
  const test = useMailInstance(backend.create, VERIFYING_YAML);
  let admin: SignedIn;
  let counter = 0;
  const freshEmail = (label: string) => `${label}-${++counter}@example.com`;
  const login = (email: string, password = TEST_PASSWORD) => test.api.post("/api/user/login", { email, password });
  // Signed in afresh: tests move the clock past earlier tokens.
  const adminToken = async () => (await signIn(test.api, admin)).token;

  async function register(email: string): Promise<string> {
    const answer = await test.api.post("/api/user/register", { email, password: TEST_PASSWORD });
    expect(answer.status).toBe(201);
    expect(answer.body.user.emailVerified).toBe(false);
    return tokenOf(await test.mail.waitFor(email));
  }

  beforeAll(async () => {
    admin = await setUpAdmin(test.api);
  });

  it("counts the setup administrator as verified", async () => {
    const me = await test.api.get("/api/user/me", { token: admin.token });
    expect(me.body.user.emailVerified).toBe(true);
  });

  it("sends a link on register; sign-in is 403 EMAIL_NOT_VERIFIED after a right password only, until the link is used", async () => {
    const email = freshEmail("new");
    const token = await register(email);
    const message = test.mail.to(email)[0];
    const link = linkOf(message as NonNullable<typeof message>);
    expect(`${link.origin}${link.pathname}`).toBe("https://app.example.com/verify-email");

    const wrong = await login(email, "not the password");
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("INVALID_CREDENTIALS");
    const refused = await login(email);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("EMAIL_NOT_VERIFIED");

    const verified = await test.api.post("/api/user/verify-email", { token });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email, emailVerified: true });
    expect(JSON.stringify(verified.body)).not.toMatch(/passwordHash|token/i);
    const signedIn = await login(email);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.emailVerified).toBe(true);

    const again = await test.api.post("/api/user/verify-email", { token });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVALID_VERIFICATION_TOKEN");
  });

  it("lets exactly one of many simultaneous uses of a link through", async () => {
    const token = await register(freshEmail("race"));
    const answers = await Promise.all(Array.from({ length: 8 }, () => test.api.post("/api/user/verify-email", { token })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.code === "INVALID_VERIFICATION_TOKEN")).toHaveLength(7);
  });

  it("resends a link to an unconfirmed address, which supersedes the first; a confirmed one gets none", async () => {
    const email = freshEmail("resend");
    const first = await register(email);
    const resent = await test.api.post("/api/user/resend-verification", { email });
    expect(resent.status).toBe(202);
    expect(resent.body).toEqual({});
    const second = tokenOf(await test.mail.waitFor(email, { count: 2 }));
    expect((await test.api.post("/api/user/verify-email", { token: first })).body.code).toBe("INVALID_VERIFICATION_TOKEN");
    expect((await test.api.post("/api/user/verify-email", { token: second })).status).toBe(200);

    expect((await test.api.post("/api/user/resend-verification", { email })).status).toBe(202);
    expect((await test.api.post("/api/user/resend-verification", { email: freshEmail("nobody") })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(test.mail.to(email)).toHaveLength(2);
  });

  it("lets a link work for 24 hours and no longer", async () => {
    const late = await register(freshEmail("late"));
    test.advance(24 * 3600 + 1);
    expect((await test.api.post("/api/user/verify-email", { token: late })).body.code).toBe("INVALID_VERIFICATION_TOKEN");
    const inTime = await register(freshEmail("in-time"));
    test.advance(23 * 3600);
    expect((await test.api.post("/api/user/verify-email", { token: inTime })).status).toBe(200);
  });

  it("marks a changed email unconfirmed and sends it a link, without blocking a user who confirmed before", async () => {
    const email = freshEmail("mover");
    await test.api.post("/api/user/verify-email", { token: await register(email) });
    const user = (await login(email)).body;
    const moved = freshEmail("moved");
    const changed = await test.api.patch(
      `/api/user/${user.user.id}`,
      { email: moved, currentPassword: TEST_PASSWORD },
      { token: user.token },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.item).toMatchObject({ email: moved, emailVerified: false });
    const token = tokenOf(await test.mail.waitFor(moved));
    expect((await login(moved)).status).toBe(200);
    expect((await test.api.post("/api/user/verify-email", { token })).body.user).toMatchObject({ email: moved, emailVerified: true });
  });

  it("refuses a link to an address the user no longer has", async () => {
    const email = freshEmail("stale");
    const token = await register(email);
    const adminBearer = await adminToken();
    const id = (await test.api.get(`/api/user?limit=100`, { token: adminBearer })).body.items.find(
      (item: { email: string }) => item.email === email,
    ).id;
    expect((await test.api.patch(`/api/user/${id}`, { email: freshEmail("elsewhere") }, { token: adminBearer })).status).toBe(200);
    expect((await test.api.post("/api/user/verify-email", { token })).body.code).toBe("INVALID_VERIFICATION_TOKEN");
  });

  it("counts a user an administrator created with a password as verified", async () => {
    const email = freshEmail("made");
    const created = await test.api.post("/api/user", { email, password: TEST_PASSWORD }, { token: await adminToken() });
    expect(created.status).toBe(201);
    expect(created.body.item.emailVerified).toBe(true);
    expect((await login(email)).status).toBe(200);
  });

  it("answers bodies without a token 400 INVALID_BODY and unknown tokens 400 INVALID_VERIFICATION_TOKEN", async () => {
    expect((await test.api.post("/api/user/verify-email", {})).body.code).toBe("INVALID_BODY");
    expect((await test.api.post("/api/user/verify-email", { token: "" })).body.code).toBe("INVALID_BODY");
    expect((await test.api.post("/api/user/resend-verification", { email: "nope" })).body.code).toBe("INVALID_BODY");
    const unknown = await test.api.post("/api/user/verify-email", { token: "A".repeat(43) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("INVALID_VERIFICATION_TOKEN");
  });
});

describe.each(BACKENDS)("email verification not required on $name", (backend) => {
  const test = useMailInstance(backend.create);

  it("signs in a user who never confirmed, sends no link on register, and confirms through resend on request", async () => {
    await setUpAdmin(test.api);
    const email = "relaxed@example.com";
    const registered = await test.api.post("/api/user/register", { email, password: TEST_PASSWORD });
    expect(registered.body.user.emailVerified).toBe(false);
    expect((await test.api.post("/api/user/login", { email, password: TEST_PASSWORD })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(test.mail.to(email)).toEqual([]);
    expect((await test.api.post("/api/user/resend-verification", { email })).status).toBe(202);
    const token = tokenOf(await test.mail.waitFor(email));
    expect((await test.api.post("/api/user/verify-email", { token })).body.user.emailVerified).toBe(true);
  });
});
