import { ADMIN, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, createSqliteDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { parseSetCookie } from "cookie";
import { beforeAll, describe, expect, it } from "vitest";
import { resetSecondFactors } from "../../src/admin.js";
import { entryPath } from "../../src/endpoints/api-paths.js";
import { catalogOperations } from "../../src/endpoints/catalog.js";
import type { MailMessage } from "../../src/index.js";
import { useClockedPair } from "../support/clocked.js";
import { useInstance } from "../support/instance.js";
import { currentCode, enrolTotp, passwordStep } from "../support/second-factors.js";

/**
 * Second factors a role must use (docs/mfa.md, `auth.mfa.required`) on both databases: enrolment at
 * setup and at login, the enrolment token that opens only the enrolment endpoints, and what other
 * account changes (a password reset, deleting a user, the admin command's reset) do to factors.
 */

// A provider and organizations are declared so that every endpoint of the catalog is served (the provider is never reached).
const REQUIRED_YAML = `${BLOG_YAML}  mfa: { required: [Admin] }\n  providers: { acme: { type: oidc, issuer: "https://id.acme.example" } }\n  organizations: { roles: [Owner, Member] }\n`;
const PROVIDERS = { acme: { clientId: "mfa-required-test", clientSecret: "mfa-required-test-secret" } };
const SAME_SITE = { origin: "http://localhost", host: "localhost" };

describe.each(BACKENDS)("required second factors on $name", (backend) => {
  const sent: MailMessage[] = [];
  const mailer = { send: async (message: MailMessage) => void sent.push(message) };
  const pair = useClockedPair(backend.create, { mail: { mailer, appUrl: "http://localhost" }, providers: PROVIDERS }, REQUIRED_YAML);
  const api = () => pair.first.api;
  const auth = () => pair.first.auth;
  let enrolmentToken = "";
  let adminSecret = "";
  /** The administrator's password: a reset below changes it. */
  const ADMIN_PASSWORD = { current: ADMIN.password };

  /** A token of the administrator, through both steps. */
  async function adminToken(): Promise<string> {
    pair.advance(30);
    const mfaToken = await passwordStep(api(), ADMIN.email, ADMIN_PASSWORD.current);
    const answer = await api().post("/api/user/login/mfa", { mfaToken, code: currentCode(auth(), adminSecret) });
    expect(answer.status).toBe(200);
    return answer.body.token;
  }

  beforeAll(async () => {
    const setup = await api().post("/api/user/setup", ADMIN);
    expect(setup.status).toBe(201);
    expect(setup.body).toEqual({ mfaEnrollmentRequired: true, mfaToken: expect.any(String) });
    enrolmentToken = setup.body.mfaToken;
  });

  it("creates the administrator at setup but starts no session: setup is complete, login needs the enrolment too", async () => {
    expect(await auth().tools.sessions?.store.count()).toBe(0);
    expect((await api().get("/api/user/setup")).body).toEqual({ setupRequired: false });
    const login = await api().post("/api/user/login", { email: ADMIN.email, password: ADMIN.password });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ mfaEnrollmentRequired: true, mfaToken: expect.any(String) });
  });

  it("refuses the enrolment token on every other endpoint, 401 as an invalid token", async () => {
    const operations = catalogOperations().filter(({ operation }) => !operation.enrolment);
    const calls = [
      ...operations.map(({ method, entry }) => [method, entryPath({ segment: "user" }, entry).replace(/\{[^}]+\}/g, "x")] as const),
      ["GET", "/api/post"] as const,
      ["POST", "/api/post"] as const,
      ["GET", "/api/user/x"] as const,
    ];
    for (const [method, path] of calls) {
      const answer = await api().call(method, path, method === "GET" ? undefined : {}, { token: enrolmentToken });
      expect(answer, `${method} ${path}`).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
      expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    }
  });

  it("opens mfa/totp and mfa/totp/confirm to it, and the confirming answer signs in; the token is spent", async () => {
    const { secret, recoveryCodes, confirmed } = await enrolTotp(api(), auth(), enrolmentToken);
    adminSecret = secret;
    expect(recoveryCodes).toHaveLength(10);
    expect(confirmed.body).toMatchObject({ tokenType: "Bearer", token: expect.any(String), refreshToken: expect.any(String) });
    expect(confirmed.body.user).toMatchObject({ email: ADMIN.email, role: "Admin" });
    expect((await pair.second.api.get("/api/user/me", { token: confirmed.body.token })).status).toBe(200);
    for (const path of ["/api/user/mfa/totp", "/api/user/mfa/totp/confirm"]) {
      const spent = await api().post(path, { code: "123456" }, { token: enrolmentToken });
      expect(spent, path).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
    }
    pair.advance(30);
    const mfaToken = await passwordStep(api(), ADMIN.email, ADMIN.password);
    expect((await api().post("/api/user/login/mfa", { mfaToken, code: currentCode(auth(), secret) })).status).toBe(200);
  });

  it("asks a user whose role becomes required to enrol at login, and signs them in with cookies when asked", async () => {
    const editor = await signUp(api(), { email: "promoted@example.com" });
    expect((await api().patch(`/api/user/${editor.id}`, { role: "Admin" }, { token: await adminToken() })).status).toBe(200);
    const login = await api().post(
      "/api/user/login",
      { email: editor.email, password: TEST_PASSWORD, transport: "cookie" },
      { headers: SAME_SITE },
    );
    expect(login.body).toEqual({ mfaEnrollmentRequired: true, mfaToken: expect.any(String) });
    expect(login.headers.getSetCookie()).toEqual([]);
    const token = login.body.mfaToken;
    const started = await api().post("/api/user/mfa/totp", undefined, { token });
    const body = { code: currentCode(auth(), started.body.secret), transport: "cookie" };
    const crossSite = await api().post("/api/user/mfa/totp/confirm", body, { token, headers: { origin: "https://evil.example" } });
    expect(crossSite).toMatchObject({ status: 403, body: { code: "FORBIDDEN_ORIGIN" } });
    const confirmed = await api().post("/api/user/mfa/totp/confirm", body, { token, headers: SAME_SITE });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(confirmed.body.user).toMatchObject({ email: editor.email, role: "Admin" });
    expect(confirmed.body).not.toHaveProperty("token");
    const names = confirmed.headers.getSetCookie().map((line) => parseSetCookie(line).name);
    expect(names.sort()).toEqual(["domain-auth.refresh-token", "domain-auth.token"]);
  });

  it("signs in a role that is not required as before", async () => {
    const reader = await signUp(api(), { email: "reader@example.com" });
    expect(reader.role).toBe("Reader");
    expect(reader.token).toEqual(expect.any(String));
  });

  it("lets an enrolment token expire after 5 minutes", async () => {
    const login = await api().post("/api/user/login", { email: "promoted@example.com", password: TEST_PASSWORD });
    expect(login.body.mfaRequired).toBe(true);
    const late = await signUp(api(), { email: "late@example.com" });
    const admin = await adminToken();
    await api().patch(`/api/user/${late.id}`, { role: "Admin" }, { token: admin });
    const { mfaToken } = (await api().post("/api/user/login", { email: late.email, password: TEST_PASSWORD })).body;
    pair.advance(301);
    expect((await api().post("/api/user/mfa/totp", undefined, { token: mfaToken })).status).toBe(401);
  });

  it("keeps a user's factors through a password reset by e-mail, which then asks for the second step", async () => {
    expect((await api().post("/api/user/forgot-password", { email: ADMIN.email })).status).toBe(202);
    // The message goes after the answer.
    await expect.poll(() => sent.filter((message) => message.to === ADMIN.email).length).toBe(1);
    const link = new URL(sent.find((message) => message.to === ADMIN.email)?.link ?? "");
    const reset = await api().post("/api/user/reset-password", { token: link.searchParams.get("token"), password: "a new passphrase!" });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String), methods: ["totp", "recovery"], expiresIn: 300 });
    pair.advance(30);
    const signedIn = await api().post("/api/user/login/mfa", { mfaToken: reset.body.mfaToken, code: currentCode(auth(), adminSecret) });
    expect(signedIn.status).toBe(200);
    await passwordStep(api(), ADMIN.email, "a new passphrase!");
    ADMIN_PASSWORD.current = "a new passphrase!";
  });

  it("removes a deleted user's factors with them", async () => {
    const user = await signUp(api(), { email: "leaving@example.com" });
    await enrolTotp(api(), auth(), user.token);
    const deleted = await api().delete(`/api/user/${user.id}`, { token: await adminToken() });
    expect(deleted.status).toBe(204);
    const database = auth().tools.mfa?.store.database.db;
    for (const table of ["domain_auth_totp", "domain_auth_recovery_codes", "domain_auth_mfa_tokens"]) {
      expect(await database?.selectFrom(table).selectAll().where("userId", "=", user.id).execute(), table).toEqual([]);
    }
  });

  it("lets the admin tool remove a user's factors and sign them out everywhere", async () => {
    const user = await signUp(api(), { email: "lost-phone@example.com" });
    await enrolTotp(api(), auth(), user.token);
    await passwordStep(api(), user.email, TEST_PASSWORD);
    const { user: profile } = await resetSecondFactors(auth(), " Lost-Phone@example.com ");
    expect(profile).toMatchObject({ id: user.id, email: user.email });
    expect(JSON.stringify(profile)).not.toMatch(/password|secret/i);
    expect((await pair.second.api.get("/api/user/me", { token: user.token })).status).toBe(401);
    expect((await signIn(api(), { email: user.email })).token).toEqual(expect.any(String));
    await expect(resetSecondFactors(auth(), "nobody@example.com")).rejects.toThrow(/no user/);
  });
});

describe("with both second factors off", () => {
  const instance = useInstance(createSqliteDatabase, `${BLOG_YAML}  mfa: { totp: false, passkeys: false }\n`);

  it("serves no second-factor endpoint, documents none, and signs in with a password alone", async () => {
    const admin = await setUpAdmin(instance.api);
    expect(admin.token).toEqual(expect.any(String));
    for (const [method, path] of [
      ["POST", "/api/user/mfa/totp"],
      ["DELETE", "/api/user/mfa/totp"],
      ["POST", "/api/user/mfa/totp/confirm"],
      ["POST", "/api/user/mfa/recovery-codes"],
      ["POST", "/api/user/login/mfa"],
      ["POST", "/api/user/login/passkey/options"],
      ["POST", "/api/user/login/passkey"],
      ["POST", "/api/user/passkeys/options"],
      ["GET", "/api/user/passkeys"],
      ["POST", "/api/user/passkeys"],
      ["DELETE", "/api/user/passkeys/x"],
    ] as const) {
      const body = method === "GET" ? undefined : {};
      expect((await instance.api.call(method, path, body, { token: admin.token })).status, `${method} ${path}`).toBe(404);
    }
    const document = (await instance.api.get("/api/openapi.json")).body;
    expect(Object.keys(document.paths).filter((path) => /mfa|passkey/.test(path))).toEqual([]);
    expect((await signIn(instance.api, ADMIN)).token).toEqual(expect.any(String));
  });
});
