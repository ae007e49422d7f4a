import { setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { parseSetCookie } from "cookie";
import { describe, expect, it } from "vitest";
import { resetSecondFactors } from "../../src/admin.js";
import { hashSecret } from "../../src/mfa/secrets.js";
import type { ApiClient } from "../support/client.js";
import { useClockedPair } from "../support/clocked.js";
import { readAllEvents, settled } from "../support/events.js";
import { useInstance } from "../support/instance.js";
import { SoftAuthenticator } from "../support/soft-authenticator.js";

/**
 * Passkeys (docs/mfa.md) on both databases, answered by a software authenticator: registration,
 * a sign-in with a passkey alone and as the second step after a password, removal, challenges that
 * work once and only for whom and what they were made, user verification and the origin enforced,
 * a required enrolment made with a passkey, and what is stored.
 */

/** The app's own origin as a browser calls it in development (no APP_URL): the relying party is `localhost`. */
const ORIGIN = "http://localhost:3000";
const SAME_SITE = { origin: ORIGIN, host: "localhost:3000" };
const on = (token?: string) => ({ headers: SAME_SITE, ...(token ? { token } : {}) });

/** Registers a new passkey of the token's user on `device`; the answer of `POST passkeys`. */
async function addPasskey(api: ApiClient, token: string, device: SoftAuthenticator, name?: string) {
  const options = await api.post("/api/user/passkeys/options", undefined, on(token));
  expect(options.status, options.text).toBe(200);
  const response = device.register(options.body as PublicKeyCredentialCreationOptionsJSON);
  return api.post("/api/user/passkeys", { response, ...(name ? { name } : {}) }, on(token));
}

/** Options of a sign-in (with an `mfaToken`: of its second step). */
async function signInOptions(api: ApiClient, mfaToken?: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await api.post("/api/user/login/passkey/options", mfaToken ? { mfaToken } : {}, on());
  expect(options.status, options.text).toBe(200);
  return options.body as PublicKeyCredentialRequestOptionsJSON;
}

describe.each(BACKENDS)("passkeys on $name", (backend) => {
  const pair = useClockedPair(backend.create);
  const api = () => pair.first.api;
  let counter = 0;
  const freshEmail = (label: string) => `${label}-${++counter}@example.com`;

  /** A new user with one passkey on a new device. */
  async function userWithPasskey(label: string) {
    const user = await signUp(api(), { email: freshEmail(label) });
    const device = new SoftAuthenticator(ORIGIN);
    const added = await addPasskey(api(), user.token, device);
    expect(added.status, added.text).toBe(201);
    return { ...user, device, passkeyId: String(added.body.id) };
  }

  it("answers registration options for a discoverable credential with user verification, the relying party from the request", async () => {
    await setUpAdmin(api());
    const user = await signUp(api(), { email: freshEmail("options") });
    const options = await api().post("/api/user/passkeys/options", undefined, on(user.token));
    expect(options.status).toBe(200);
    expect(options.headers.get("cache-control")).toBe("no-store");
    expect(options.body).toMatchObject({
      rp: { id: "localhost", name: "blog" },
      user: { name: user.email },
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      attestation: "none",
    });
    expect(
      await api()
        .post("/api/user/passkeys/options", undefined, on())
        .then((answer) => answer.status),
    ).toBe(401);
  });

  it("adds a passkey (201, never its key), lists it, and signs the user's other sessions out", async () => {
    const user = await signUp(api(), { email: freshEmail("add") });
    const other = await signIn(pair.second.api, { email: user.email });
    const added = await addPasskey(api(), user.token, new SoftAuthenticator(ORIGIN), "Laptop");
    expect(added.status, added.text).toBe(201);
    expect(added.body).toEqual({ id: expect.any(String), name: "Laptop", createdAt: expect.any(String) });
    const listed = await api().get("/api/user/passkeys", on(user.token));
    expect(listed.body).toEqual({ items: [{ ...added.body, lastUsedAt: null }] });
    expect((await api().get("/api/user/me", { token: user.token })).status).toBe(200);
    expect((await pair.second.api.get("/api/user/me", { token: other.token })).status).toBe(401);
  });

  it("refuses a registration from another origin, without user verification, or answering a spent or foreign challenge", async () => {
    const user = await signUp(api(), { email: freshEmail("refused") });
    const stranger = await signUp(api(), { email: freshEmail("stranger") });
    const device = new SoftAuthenticator(ORIGIN);
    const optionsOf = async (token: string) =>
      (await api().post("/api/user/passkeys/options", undefined, on(token))).body as PublicKeyCredentialCreationOptionsJSON;
    const attempts = [
      device.register(await optionsOf(user.token), { origin: "http://evil.example" }),
      device.register(await optionsOf(user.token), { userVerified: false }),
      device.register(await optionsOf(stranger.token)),
    ];
    for (const response of attempts) {
      const answer = await api().post("/api/user/passkeys", { response }, on(user.token));
      expect(answer).toMatchObject({ status: 400, body: { code: "INVALID_BODY", issues: [{ path: ["response"] }] } });
    }
    const good = device.register(await optionsOf(user.token));
    expect((await api().post("/api/user/passkeys", { response: good }, on(user.token))).status).toBe(201);
    // The same answer again: its challenge is spent.
    expect((await api().post("/api/user/passkeys", { response: good }, on(user.token))).status).toBe(400);
    expect((await api().get("/api/user/passkeys", on(user.token))).body.items).toHaveLength(1);
  });

  it("signs in with a passkey alone, in either transport; the answer is refused a second time", async () => {
    const user = await userWithPasskey("alone");
    const response = user.device.authenticate(await signInOptions(api()));
    const signedIn = await api().post("/api/user/login/passkey", { response }, on());
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String), user: { email: user.email } });
    expect((await api().get("/api/user/me", { token: signedIn.body.token })).body.user.email).toBe(user.email);
    const replayed = await api().post("/api/user/login/passkey", { response }, on());
    expect(replayed).toMatchObject({ status: 401, body: { code: "INVALID_PASSKEY" } });

    const cookie = user.device.authenticate(await signInOptions(api()));
    const withCookies = await api().post("/api/user/login/passkey", { response: cookie, transport: "cookie" }, on());
    expect(withCookies.status).toBe(200);
    expect(withCookies.body.token).toBeUndefined();
    const names = withCookies.headers.getSetCookie().map((line) => parseSetCookie(line).name);
    expect(names).toEqual(expect.arrayContaining(["domain-auth.token", "domain-auth.refresh-token"]));
    const crossSite = user.device.authenticate(await signInOptions(api()));
    const refused = await api().post(
      "/api/user/login/passkey",
      { response: crossSite, transport: "cookie" },
      { headers: { ...SAME_SITE, origin: "http://evil.example" } },
    );
    expect(refused).toMatchObject({ status: 403, body: { code: "FORBIDDEN_ORIGIN" } });
    const used = (await api().get("/api/user/passkeys", on(signedIn.body.token))).body.items[0];
    expect(used.lastUsedAt).toEqual(expect.any(String));
  });

  it("refuses a sign-in from another origin, without user verification, with an unknown passkey, or with an expired challenge", async () => {
    const user = await userWithPasskey("refusals");
    // A credential made for this site but never registered.
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.register({
      rp: { id: "localhost", name: "blog" },
      user: { id: "c3RyYW5nZXI", name: "stranger", displayName: "" },
      challenge: "bm9uZQ",
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    });
    const refusedAnswers = [
      user.device.authenticate(await signInOptions(api()), undefined, { origin: "http://evil.example" }),
      user.device.authenticate(await signInOptions(api()), undefined, { userVerified: false }),
      stranger.authenticate(await signInOptions(api())),
    ];
    for (const response of refusedAnswers) {
      const answer = await api().post("/api/user/login/passkey", { response }, on());
      expect(answer).toMatchObject({ status: 401, body: { code: "INVALID_PASSKEY" } });
    }
    const late = await signInOptions(api());
    pair.advance(121);
    const expired = await api().post("/api/user/login/passkey", { response: user.device.authenticate(late) }, on());
    expect(expired).toMatchObject({ status: 401, body: { code: "INVALID_PASSKEY" } });
    expect(
      (await api().post("/api/user/login/passkey", { response: user.device.authenticate(await signInOptions(api())) }, on())).status,
    ).toBe(200);
  });

  it("makes a passkey the second step after a password: methods name it, options list only that user's passkeys, the mfaToken works once", async () => {
    const user = await userWithPasskey("second");
    const other = await userWithPasskey("other");
    const login = await api().post("/api/user/login", { email: user.email, password: TEST_PASSWORD });
    expect(login.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String), methods: ["passkey"], expiresIn: 300 });
    const { mfaToken } = login.body;
    const options = await signInOptions(api(), mfaToken);
    expect(options.allowCredentials?.map((credential) => credential.id)).toEqual([...user.device.credentials.keys()]);
    // Another user's passkey, even answering this challenge, is not this user's second step.
    const foreign = other.device.authenticate(options, [...other.device.credentials.keys()][0]);
    const refused = await api().post("/api/user/login/mfa", { mfaToken, passkey: foreign }, on());
    expect(refused).toMatchObject({ status: 401, body: { code: "INVALID_PASSKEY" } });
    // A challenge of a discoverable sign-in does not do for a second step.
    const discoverable = user.device.authenticate(await signInOptions(api()));
    expect((await api().post("/api/user/login/mfa", { mfaToken, passkey: discoverable }, on())).body.code).toBe("INVALID_PASSKEY");
    const passkey = user.device.authenticate(await signInOptions(api(), mfaToken));
    const finished = await api().post("/api/user/login/mfa", { mfaToken, passkey }, on());
    expect(finished.status, finished.text).toBe(200);
    expect(finished.body.user.email).toBe(user.email);
    const again = user.device.authenticate(options);
    expect((await api().post("/api/user/login/mfa", { mfaToken, passkey: again }, on())).body.code).toBe("INVALID_MFA_TOKEN");
    expect((await api().post("/api/user/login/passkey/options", { mfaToken }, on())).body.code).toBe("INVALID_MFA_TOKEN");
  });

  it("counts refused passkeys as failed logins of the user: the fifth locks the email", async () => {
    const user = await userWithPasskey("throttle");
    const { mfaToken } = (await api().post("/api/user/login", { email: user.email, password: TEST_PASSWORD })).body;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const passkey = user.device.authenticate(await signInOptions(api(), mfaToken), undefined, { userVerified: false });
      statuses.push((await api().post("/api/user/login/mfa", { mfaToken, passkey }, on())).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("removes a passkey (204): other sessions end, the passkey signs in no more, and nobody else's can be removed", async () => {
    const user = await userWithPasskey("remove");
    const stranger = await signUp(api(), { email: freshEmail("remover") });
    // A password alone no longer signs in.
    const password = await api().post("/api/user/login", { email: user.email, password: TEST_PASSWORD });
    expect(password.body).toMatchObject({ mfaRequired: true, methods: ["passkey"] });
    expect((await api().delete(`/api/user/passkeys/${user.passkeyId}`, on(stranger.token))).status).toBe(404);
    const signedIn = await api().post("/api/user/login/passkey", { response: user.device.authenticate(await signInOptions(api())) }, on());
    expect((await api().delete(`/api/user/passkeys/${user.passkeyId}`, on(user.token))).status).toBe(204);
    expect((await api().get("/api/user/me", { token: signedIn.body.token })).status).toBe(401);
    expect((await api().get("/api/user/me", { token: user.token })).status).toBe(200);
    const response = user.device.authenticate(await signInOptions(api()));
    expect((await api().post("/api/user/login/passkey", { response }, on())).body.code).toBe("INVALID_PASSKEY");
    expect((await signIn(api(), { email: user.email })).token).toEqual(expect.any(String));
    expect((await api().delete(`/api/user/passkeys/${user.passkeyId}`, on(user.token))).status).toBe(404);
  });

  it("records passkey.added and passkey.removed with the change, sign-ins with the method, refusals after the answer", async () => {
    const user = await userWithPasskey("events");
    const signedIn = await api().post("/api/user/login/passkey", { response: user.device.authenticate(await signInOptions(api())) }, on());
    const refused = user.device.authenticate(await signInOptions(api()), undefined, { userVerified: false });
    expect((await api().post("/api/user/login/passkey", { response: refused }, on())).status).toBe(401);
    expect((await api().delete(`/api/user/passkeys/${user.passkeyId}`, on(signedIn.body.token))).status).toBe(204);
    await settled(pair.first.auth);
    const events = await readAllEvents(api(), signedIn.body.token);
    const of = (type: string) => events.filter((event) => event.type === type);
    expect(of("passkey.added")).toEqual([
      expect.objectContaining({ userId: user.id, actorId: user.id, detail: { passkeyId: user.passkeyId, name: "Passkey" } }),
    ]);
    expect(of("passkey.removed")).toEqual([expect.objectContaining({ userId: user.id, detail: { passkeyId: user.passkeyId } })]);
    expect(of("login.succeeded").map((event) => event.detail.method)).toContain("passkey");
    expect(of("login.failed")).toEqual([expect.objectContaining({ userId: user.id, detail: { reason: "passkey_refused" } })]);
    const credentialId = [...user.device.credentials.keys()][0] as string;
    expect(JSON.stringify(events)).not.toContain(credentialId);
  });

  it("stores the public key only, challenges by their hash; the admin command's reset removes passkeys", async () => {
    const user = await userWithPasskey("stored");
    const database = pair.first.auth.tools.mfa?.store.database;
    if (!database) throw new Error("no auth");
    const options = await signInOptions(api());
    const challenges = await database.db.selectFrom("domain_auth_webauthn_challenges").selectAll().execute();
    expect(JSON.stringify(challenges)).not.toContain(options.challenge);
    expect(challenges.map((row) => row.challengeHash)).toContain(hashSecret(options.challenge));
    const rows = await database.db.selectFrom("domain_auth_passkeys").selectAll().where("userId", "=", user.id).execute();
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      ["counter", "createdAt", "credentialId", "id", "lastUsedAt", "name", "publicKey", "transports", "userId"].sort(),
    );
    await resetSecondFactors(pair.first.auth, user.email);
    expect((await api().get("/api/user/passkeys", on((await signIn(api(), { email: user.email })).token))).body.items).toEqual([]);
  });
});

describe.each(BACKENDS)("passkeys with APP_URL and as a required enrolment on $name", (backend) => {
  const instance = useInstance(backend.create, `${BLOG_YAML}  mfa: { totp: false, required: [Admin] }\n`, {
    appUrl: "https://app.example",
  });

  it("enrols the first administrator with a passkey: the enrolment token opens passkeys/options and passkeys, whose answer signs in", async () => {
    const setup = await instance.api.post("/api/user/setup", { email: "admin@example.com", password: TEST_PASSWORD });
    expect(setup.body).toEqual({ mfaEnrollmentRequired: true, mfaToken: expect.any(String) });
    const enrolment = setup.body.mfaToken;
    expect((await instance.api.get("/api/user/passkeys", { token: enrolment })).status).toBe(401);
    const options = await instance.api.post("/api/user/passkeys/options", undefined, { token: enrolment });
    expect(options.body.rp).toEqual({ id: "app.example", name: "blog" });
    const device = new SoftAuthenticator("https://app.example");
    // The relying party is APP_URL's: an answer made on the request's own origin is refused.
    const elsewhere = device.register(options.body, { origin: "http://localhost:3000" });
    const refused = await instance.api.post("/api/user/passkeys", { response: elsewhere }, { token: enrolment, headers: SAME_SITE });
    expect(refused.status).toBe(400);
    const again = await instance.api.post("/api/user/passkeys/options", undefined, { token: enrolment });
    const added = await instance.api.post(
      "/api/user/passkeys",
      { response: device.register(again.body), name: "Phone" },
      { token: enrolment },
    );
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({ name: "Phone", token: expect.any(String), user: { email: "admin@example.com" } });
    expect((await instance.api.post("/api/user/passkeys/options", undefined, { token: enrolment })).status).toBe(401);
    const login = await instance.api.post("/api/user/login", { email: "admin@example.com", password: TEST_PASSWORD });
    expect(login.body).toMatchObject({ mfaRequired: true, methods: ["passkey"] });
    expect((await instance.api.post("/api/user/mfa/totp", undefined, { token: added.body.token })).status).toBe(404);
  });
});

describe("malformed passkey answers", () => {
  const instance = useInstance(BACKENDS[0].create);

  it("are a 4xx with the API's error body (docs/api.md#errors-in-the-order-they-are-checked) on every endpoint that reads one, never a 5xx", async () => {
    const admin = await setUpAdmin(instance.api);
    const device = new SoftAuthenticator(ORIGIN);
    const options = await instance.api.post("/api/user/passkeys/options", undefined, on(admin.token));
    const good = device.register(options.body as PublicKeyCredentialCreationOptionsJSON);
    const garbage = (text: string) => Buffer.from(text).toString("base64url");
    const responses: unknown[] = [
      { ...good, response: { ...good.response, clientDataJSON: garbage("not json") } },
      { ...good, response: { ...good.response, clientDataJSON: garbage('{"type":"webauthn.create","challenge":42}') } },
      { ...good, response: { ...good.response, attestationObject: garbage("\u00a1\u00ff") } },
      { ...good, response: { ...good.response, attestationObject: "" } },
      { ...good, id: "", rawId: "" },
      { ...good, type: "password" },
      { ...good, response: null },
      { ...good, response: { ...good.response, clientDataJSON: "a".repeat(5000) } },
      "x",
      null,
      { ...good, response: { ...good.response, clientDataJSON: "not+base64/url==" } },
    ];
    const { mfaToken } = (await instance.api.post("/api/user/login", { email: admin.email, password: TEST_PASSWORD })).body;
    for (const response of responses) {
      const answers = [
        await instance.api.post("/api/user/passkeys", { response }, on(admin.token)),
        await instance.api.post("/api/user/login/passkey", { response }, on()),
        await instance.api.post("/api/user/login/mfa", { mfaToken: mfaToken ?? "mfa_x", passkey: response }, on()),
      ];
      for (const answer of answers) {
        expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
        expect(answer.status, answer.text).toBeLessThan(500);
        expect(answer.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }
    }
  });
});
