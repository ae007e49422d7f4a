import { ADMIN, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { beforeAll, describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER } from "../../src/index.js";
import { PROVIDER_FLOW_LIMITS } from "../../src/throttle/provider-flow-throttle.js";
import { pathOf, useProviderTest } from "../support/provider-flow.js";
import { currentCode, enrolTotp } from "../support/second-factors.js";

const ORIGIN = { origin: "http://localhost:3000" };

describe.each(BACKENDS)("sign-in with an OpenID provider on $name (docs/providers.md#who-signs-in)", (backend) => {
  const test = useProviderTest(backend.create, {
    accounts: {
      alice: { email: "Alice@Example.com", email_verified: true, name: "Alice Liddell" },
      "alice-again": { email: "alice.new@example.com", email_verified: true },
      mallory: { email: "victim@example.com", email_verified: true },
      unvouched: { email: "nobody@example.com", email_verified: false },
      verified: { email: "verified@example.com", email_verified: true },
      carol: { email: "carol@example.com", email_verified: true },
      noemail: { name: "No Email" },
    },
  });
  let admin: Awaited<ReturnType<typeof setUpAdmin>>;

  beforeAll(async () => {
    admin = await setUpAdmin(test.instance.api);
  });

  const events = async (type: string) =>
    (await test.instance.api.get(`/api/user/events?type=${type}`, { token: admin.token })).body.items as Record<string, unknown>[];

  it("signs up a new person with a vouched e-mail: verified, the default role, no usable password; goes to next", async () => {
    const browser = test.browser();
    const answer = await test.signIn(browser, "alice", "/dashboard?tab=2");
    expect(answer.status, answer.text).toBe(302);
    expect(answer.headers.get("location")).toBe("/dashboard?tab=2");
    expect(browser.signedIn).toBe(true);
    const me = await browser.get("/api/user/me");
    expect(me.body.user).toMatchObject({ email: "alice@example.com", name: "Alice Liddell", role: "Reader" });
    expect(me.text).not.toMatch(/password/i);
    // No password was set: the usual refusal, for any password.
    const login = await test.instance.api.post("/api/user/login", { email: "alice@example.com", password: TEST_PASSWORD });
    expect(login.status).toBe(401);
    expect(login.body.code).toBe("INVALID_CREDENTIALS");
    const [signedUp] = await events("login.succeeded");
    expect(signedUp).toMatchObject({ email: "alice@example.com", detail: { method: "provider", provider: "acme" } });
    expect((await events("identity.linked"))[0]).toMatchObject({ email: "alice@example.com", detail: { provider: "acme" } });
  });

  it("signs the identity's user in again by the provider's subject, whatever e-mail the provider gives now", async () => {
    test.provider.setAccount("alice", { email: "alice.renamed@example.com", email_verified: true });
    const browser = test.browser();
    const answer = await test.signIn(browser, "alice");
    expect(answer.headers.get("location")).toBe("/profile");
    expect((await browser.get("/api/user/me")).body.user.email).toBe("alice@example.com");
  });

  it("refuses an existing account whose e-mail was never verified (pre-account takeover): ACCOUNT_EXISTS, nothing changes", async () => {
    // The attacker registers the victim's address with a password of their own, before the victim ever signs in.
    const squatter = await signUp(test.instance.api, { email: "victim@example.com", password: "the attacker's password" });
    const browser = test.browser();
    const answer = await test.signIn(browser, "mallory");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/login?error=ACCOUNT_EXISTS");
    expect(browser.signedIn).toBe(false);
    expect((await test.instance.api.get("/api/user/identities", { token: squatter.token })).body.items).toEqual([]);
    // The password still works for the one who set it, and for nobody else: no identity was linked.
    await signIn(test.instance.api, { email: "victim@example.com", password: "the attacker's password" });
  });

  it("links and signs in an existing account when both the provider and the account vouch for the e-mail", async () => {
    const invited = await test.instance.api.post(
      "/api/user",
      { email: "verified@example.com", password: TEST_PASSWORD, role: "Editor" },
      { token: admin.token },
    );
    expect(invited.status, invited.text).toBe(201);
    const browser = test.browser();
    const answer = await test.signIn(browser, "verified");
    expect(answer.headers.get("location")).toBe("/profile");
    const me = await browser.get("/api/user/me");
    expect(me.body.user).toMatchObject({ id: invited.body.item.id, role: "Editor" });
    expect((await browser.get("/api/user/identities")).body.items).toHaveLength(1);
  });

  it("signs nobody up with an e-mail the provider does not vouch for, or none", async () => {
    for (const account of ["unvouched", "noemail"]) {
      const browser = test.browser();
      const answer = await test.signIn(browser, account);
      expect(answer.headers.get("location")).toBe("/login?error=EMAIL_NOT_VERIFIED");
      expect(browser.signedIn).toBe(false);
    }
  });

  it("sends a foreign next to the profile", async () => {
    const answer = await test.signIn(test.browser(), "alice", "//evil.example/steal");
    expect(answer.headers.get("location")).toBe("/profile");
  });

  it("refuses a replayed callback, one opened in another browser, and a tampered state: OAUTH_STATE", async () => {
    const browser = test.browser();
    const started = await browser.get("/api/user/oauth/acme");
    const callback = pathOf(await test.provider.signIn(started.headers.get("location") ?? "", "alice"));
    // Another browser (no flow cookie, or its own): refused, and the flow is not spent for the one who started it.
    const stranger = test.browser();
    await stranger.get("/api/user/oauth/acme");
    for (const other of [test.browser(), stranger]) {
      const answer = await other.get(callback);
      expect(answer.headers.get("location")).toBe("/login?error=OAUTH_STATE");
      expect(other.signedIn).toBe(false);
    }
    const tampered = callback.replace(/state=([^&]+)/, (_match, state: string) => `state=${state.slice(0, -2)}xy`);
    expect((await browser.call("GET", tampered, undefined, { headers: {} })).headers.get("location")).toBe("/login?error=OAUTH_STATE");
    expect(browser.signedIn).toBe(false);
    // The browser's flow cookie was cleared by the refusal: the state alone no longer opens it.
    expect((await browser.get(callback)).headers.get("location")).toBe("/login?error=OAUTH_STATE");
  });

  it("signs in once per flow: the same callback a second time is OAUTH_STATE", async () => {
    const browser = test.browser();
    const started = await browser.get("/api/user/oauth/acme");
    const binding = [...browser.cookies].find(([name]) => name.includes("oauth-flow"));
    const callback = pathOf(await test.provider.signIn(started.headers.get("location") ?? "", "alice"));
    expect((await browser.get(callback)).headers.get("location")).toBe("/profile");
    const replay = test.browser();
    if (binding) replay.cookies.set(binding[0], binding[1]);
    const again = await replay.get(callback);
    expect(again.headers.get("location")).toBe("/login?error=OAUTH_STATE");
    expect(replay.signedIn).toBe(false);
  });

  it("refuses a forged code (OAUTH_FAILED) and a cancel at the provider (OAUTH_DENIED), setting no session", async () => {
    const browser = test.browser();
    const started = await browser.get("/api/user/oauth/acme");
    const callback = pathOf(await test.provider.signIn(started.headers.get("location") ?? "", "alice"));
    const forged = await browser.get(callback.replace(/code=([^&]+)/, "code=forged-code"));
    expect(forged.headers.get("location")).toBe("/login?error=OAUTH_FAILED");
    expect(browser.signedIn).toBe(false);
    const again = await browser.get("/api/user/oauth/acme");
    const cancelled = await browser.get(pathOf(await test.provider.cancel(again.headers.get("location") ?? "")));
    expect(cancelled.headers.get("location")).toBe("/login?error=OAUTH_DENIED");
    expect(browser.signedIn).toBe(false);
  });

  it("links an account from the profile (a recent sign-in) and signs nobody in; IDENTITY_TAKEN for another user's", async () => {
    const carol = await signUp(test.instance.api, { email: "carol.local@example.com" });
    const browser = test.browser();
    const link = await browser.call("POST", "/api/user/identities/acme", undefined, { token: carol.token });
    expect(link.status, link.text).toBe(200);
    const back = await browser.get(pathOf(await test.provider.signIn(link.body.url, "carol")));
    expect(back.headers.get("location")).toBe("/profile?connected=acme");
    expect(browser.signedIn).toBe(false);
    const listed = await test.instance.api.get("/api/user/identities", { token: carol.token });
    expect(listed.body.items).toEqual([expect.objectContaining({ provider: "acme", email: "carol@example.com" })]);
    // Alice's account at the provider is Alice's: linking it to Carol is refused.
    const taken = await browser.call("POST", "/api/user/identities/acme", undefined, { token: carol.token });
    const refused = await browser.get(pathOf(await test.provider.signIn(taken.body.url, "alice")));
    expect(refused.headers.get("location")).toBe("/profile?error=IDENTITY_TAKEN");
    expect((await test.instance.api.get("/api/user/identities", { token: carol.token })).body.items).toHaveLength(1);
    expect((await test.instance.api.post("/api/user/identities/nope", undefined, { token: carol.token })).status).toBe(404);
  });

  it("never disconnects the last way in; disconnects otherwise, and not another user's", async () => {
    const browser = test.browser();
    await test.signIn(browser, "alice");
    const [identity] = (await browser.get("/api/user/identities")).body.items;
    const last = await browser.call("DELETE", `/api/user/identities/${identity.id}`, undefined, { headers: ORIGIN });
    expect(last.status, last.text).toBe(409);
    expect(last.body.code).toBe("LAST_SIGN_IN_METHOD");
    const carol = await signIn(test.instance.api, { email: "carol.local@example.com" });
    const [carols] = (await test.instance.api.get("/api/user/identities", { token: carol.token })).body.items;
    expect((await test.instance.api.delete(`/api/user/identities/${identity.id}`, { token: carol.token })).status).toBe(404);
    expect((await test.instance.api.delete(`/api/user/identities/${carols.id}`, { token: carol.token })).status).toBe(204);
    expect((await test.instance.api.get("/api/user/identities", { token: carol.token })).body.items).toEqual([]);
    expect((await events("identity.unlinked"))[0]).toMatchObject({ email: "carol.local@example.com", detail: { provider: "acme" } });
  });

  it("asks for the second factor after the provider: the mfa token in an HttpOnly cookie, the session only after the code", async () => {
    const browser = test.browser();
    await test.signIn(browser, "alice");
    const token = browser.cookies.get("domain-auth.token") ?? "";
    const { secret } = await enrolTotp(test.instance.api, test.instance.auth, token);
    test.advance(30); // the confirming code is spent: the next step's is a new one
    const second = test.browser();
    const answer = await test.signIn(second, "alice", "/dashboard");
    expect(answer.headers.get("location")).toBe("/login?step=second-factor&methods=totp,recovery&next=%2Fdashboard");
    expect(second.signedIn).toBe(false);
    const cookie = answer.headers.getSetCookie().find((header) => header.startsWith("domain-auth.mfa="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(answer.headers.get("location")).not.toContain(second.cookies.get("domain-auth.mfa") ?? "none");
    // Another site cannot spend the cookie; the app's own page can, with a current code.
    const code = { code: currentCode(test.instance.auth, secret), transport: "cookie" };
    expect((await second.call("POST", "/api/user/login/mfa", code, { headers: { origin: "https://evil.example" } })).status).toBe(403);
    const done = await second.call("POST", "/api/user/login/mfa", code, { headers: ORIGIN });
    expect(done.status, done.text).toBe(200);
    expect(second.signedIn).toBe(true);
    expect(second.cookies.has("domain-auth.mfa")).toBe(false);
  });

  it("keeps everyone but the setup administrator out of the setup role", async () => {
    const users = (await test.instance.api.get("/api/user?limit=100", { token: admin.token })).body.items as {
      role: string;
      email: string;
    }[];
    expect(users.filter((user) => user.role === "Admin").map((user) => user.email)).toEqual([ADMIN.email]);
  });
});

describe("sign-ups through a provider where registering is closed", () => {
  const before = useProviderTest(BACKENDS[0].create, { accounts: { dana: { email: "dana@example.com", email_verified: true } } });
  const closed = useProviderTest(BACKENDS[0].create, {
    accounts: { dana: { email: "dana@example.com", email_verified: true } },
    yaml: (yaml) => yaml.replace("register: true", "register: false"),
  });

  it("refuses REGISTRATION_CLOSED before setup, and with register off", async () => {
    expect((await before.signIn(before.browser(), "dana")).headers.get("location")).toBe("/login?error=REGISTRATION_CLOSED");
    await setUpAdmin(closed.instance.api);
    expect((await closed.signIn(closed.browser(), "dana")).headers.get("location")).toBe("/login?error=REGISTRATION_CLOSED");
  });
});

describe("provider sign-ins from one client address", () => {
  const test = useProviderTest(BACKENDS[0].create, { accounts: { erin: { email: "erin@example.com", email_verified: true } } });

  it("starts 30 a minute, then sends the browser to TOO_MANY_ATTEMPTS without storing a flow", async () => {
    const from = { headers: { [PEER_ADDRESS_HEADER]: "203.0.113.9" } };
    for (let start = 0; start < PROVIDER_FLOW_LIMITS.perAddress; start++) {
      expect((await test.browser().get("/api/user/oauth/acme", from)).headers.get("location")).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/auth\?/,
      );
    }
    const refused = await test.browser().get("/api/user/oauth/acme", from);
    expect(refused.headers.get("location")).toBe("/login?error=TOO_MANY_ATTEMPTS");
    expect(refused.headers.getSetCookie()).toEqual([]);
    // Another address is not held back.
    const other = await test.browser().get("/api/user/oauth/acme", { headers: { [PEER_ADDRESS_HEADER]: "203.0.113.10" } });
    expect(other.status).toBe(302);
    expect(other.headers.get("location")).not.toContain("/login");
  });
});

describe.each(BACKENDS)("a role that must use a second factor, signing in through a provider, on $name", (backend) => {
  const test = useProviderTest(backend.create, {
    accounts: { gus: { email: "gus@example.com", email_verified: true } },
    yaml: (yaml) => yaml.replace("auth:\n  type: jwt\n", "auth:\n  type: jwt\n  mfa: { required: [Reader] }\n"),
  });

  it("sets the factor up first, the enrolment token in the cookie for the app's own pages, and signs in only then", async () => {
    await setUpAdmin(test.instance.api);
    const browser = test.browser();
    const answer = await test.signIn(browser, "gus", "/dashboard");
    expect(answer.headers.get("location")).toBe("/login?step=enrolment&next=%2Fdashboard");
    expect(browser.signedIn).toBe(false);
    expect((await browser.call("POST", "/api/user/mfa/totp", undefined, { headers: { origin: "https://evil.example" } })).status).toBe(403);
    const started = await browser.call("POST", "/api/user/mfa/totp", undefined, { headers: ORIGIN });
    expect(started.status, started.text).toBe(200);
    const code = currentCode(test.instance.auth, started.body.secret);
    const confirmed = await browser.call("POST", "/api/user/mfa/totp/confirm", { code, transport: "cookie" }, { headers: ORIGIN });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(browser.signedIn).toBe(true);
    expect((await browser.get("/api/user/me")).body.user.email).toBe("gus@example.com");
  });
});
