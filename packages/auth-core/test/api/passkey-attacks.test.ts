import { setUpAdmin, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { parseSetCookie } from "cookie";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Passkeys } from "../../src/mfa/passkeys.js";
import { PASSKEY_OPTIONS_LIMITS } from "../../src/throttle/passkey-options-throttle.js";
import type { ApiClient, ApiResult } from "../support/client.js";
import { useClockedPair } from "../support/clocked.js";
import { useInstance } from "../support/instance.js";
import { type Answering, SoftAuthenticator } from "../support/soft-authenticator.js";

/**
 * Passkeys (docs/mfa.md) against a caller who forges what a browser and an authenticator would
 * send: answers replayed or given to a challenge of another user or purpose, a credential id taken
 * from another user, a user handle naming another user, a cloned authenticator, another relying
 * party, cross-site cookie sign-ins, enrolment tokens where they do not belong or used twice at
 * once, races on one mfa token, removal during a sign-in, oversized and deeply nested answers, and
 * what the options endpoints and the throttle let an anonymous caller do. On both databases.
 */

const ORIGIN = "http://localhost:3000";
const SAME_SITE = { origin: ORIGIN, host: "localhost:3000" };
/** The options of a call from the app's own origin (development, no APP_URL), from `address`. */
const on = (token?: string, address = "192.0.2.10") => ({
  headers: { ...SAME_SITE, "x-domain-auth-peer": address },
  ...(token ? { token } : {}),
});
const base64url = (bytes: Uint8Array | Buffer | string) => Buffer.from(bytes).toString("base64url");

async function registrationOptions(api: ApiClient, token: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const options = await api.post("/api/user/passkeys/options", undefined, on(token));
  expect(options.status, options.text).toBe(200);
  return options.body;
}

async function addPasskey(api: ApiClient, token: string, device: SoftAuthenticator, answering?: Answering): Promise<ApiResult> {
  const response = device.register(await registrationOptions(api, token), answering);
  return api.post("/api/user/passkeys", { response }, on(token));
}

let optionsCalls = 0;
/** A client address of its own for each sign-in's options: the tests below that are not about their limit stay under it. */
const nextAddress = () => `198.18.${Math.floor(++optionsCalls / 250)}.${optionsCalls % 250}`;

async function signInOptions(api: ApiClient, mfaToken?: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await api.post("/api/user/login/passkey/options", mfaToken ? { mfaToken } : {}, on(undefined, nextAddress()));
  expect(options.status, options.text).toBe(200);
  return options.body;
}

async function passwordStep(api: ApiClient, email: string): Promise<string> {
  const login = await api.post("/api/user/login", { email, password: TEST_PASSWORD }, on());
  expect(login.body).toMatchObject({ mfaRequired: true, methods: ["passkey"] });
  return login.body.mfaToken;
}

function cookieHeader(answer: ApiResult): string {
  return answer.headers
    .getSetCookie()
    .map((line) => parseSetCookie(line))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join("; ");
}

describe.each(BACKENDS)("passkeys under attack on $name", (backend) => {
  const pair = useClockedPair(backend.create);
  const api = () => pair.first.api;
  let counter = 0;
  const freshEmail = (label: string) => `${label}-${++counter}@example.com`;

  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function userWithPasskey(label: string) {
    const user = await signUp(api(), { email: freshEmail(label) });
    const device = new SoftAuthenticator(ORIGIN);
    const added = await addPasskey(api(), user.token, device);
    expect(added.status, added.text).toBe(201);
    const credentialId = [...device.credentials.keys()][0] ?? "";
    return { ...user, device, credentialId, passkeyId: String(added.body.id) };
  }

  async function passkeysOf(token: string): Promise<unknown[]> {
    return (await api().get("/api/user/passkeys", on(token))).body.items;
  }

  async function challengeRows(): Promise<number> {
    const database = pair.first.auth.tools.mfa?.store.database;
    if (!database) throw new Error("no auth");
    const rows = await database.db
      .selectFrom("domain_auth_webauthn_challenges")
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .executeTakeFirstOrThrow();
    return Number(rows.total);
  }

  it("refuses a challenge answered for another purpose or another user, and an answer posted by someone else", async () => {
    await setUpAdmin(api());
    const alice = await userWithPasskey("alice");
    const bob = await userWithPasskey("bob");
    const refusedSignIn = async (response: unknown) =>
      expect((await api().post("/api/user/login/passkey", { response }, on())).body.code).toBe("INVALID_PASSKEY");

    // A registration challenge, answered as a sign-in: neither alone nor as the second step.
    const registration = await registrationOptions(api(), alice.token);
    await refusedSignIn(alice.device.authenticate({ challenge: registration.challenge }));
    const aliceStep = await passwordStep(api(), alice.email);
    const asSecondStep = alice.device.authenticate({ challenge: registration.challenge });
    expect((await api().post("/api/user/login/mfa", { mfaToken: aliceStep, passkey: asSecondStep }, on())).status).toBe(401);

    // Alice's second-step challenge: not for a discoverable sign-in, not for Bob's second step.
    const aliceOptions = await signInOptions(api(), aliceStep);
    await refusedSignIn(alice.device.authenticate(aliceOptions));
    const bobStep = await passwordStep(api(), bob.email);
    const bobOnAlice = bob.device.authenticate({ challenge: aliceOptions.challenge });
    expect((await api().post("/api/user/login/mfa", { mfaToken: bobStep, passkey: bobOnAlice }, on())).status).toBe(401);

    // A sign-in challenge answered as a registration.
    const signIn = await signInOptions(api());
    const asRegistration = new SoftAuthenticator(ORIGIN).register({ ...registration, challenge: signIn.challenge });
    expect((await api().post("/api/user/passkeys", { response: asRegistration }, on(alice.token))).status).toBe(400);

    // Alice's registration answer, posted by Bob, adds nothing to Bob's account; Alice's still works.
    const aliceAnswer = new SoftAuthenticator(ORIGIN).register(await registrationOptions(api(), alice.token));
    expect((await api().post("/api/user/passkeys", { response: aliceAnswer }, on(bob.token))).status).toBe(400);
    expect(await passkeysOf(bob.token)).toHaveLength(1);
    expect((await api().post("/api/user/passkeys", { response: aliceAnswer }, on(alice.token))).status).toBe(201);
    expect((await api().post("/api/user/passkeys", { response: aliceAnswer }, on(bob.token))).status).toBe(400);
  });

  it("refuses a second step replayed with a new mfaToken of the same user", async () => {
    const user = await userWithPasskey("replay");
    const first = await passwordStep(api(), user.email);
    const answer = user.device.authenticate(await signInOptions(api(), first));
    expect((await api().post("/api/user/login/mfa", { mfaToken: first, passkey: answer }, on())).status).toBe(200);
    const second = await passwordStep(api(), user.email);
    const replayed = await api().post("/api/user/login/mfa", { mfaToken: second, passkey: answer }, on());
    expect(replayed).toMatchObject({ status: 401, body: { code: "INVALID_PASSKEY" } });
  });

  it("refuses a credential id registered to another user (409), which neither takes the passkey over nor signs anyone in", async () => {
    const victim = await userWithPasskey("victim");
    const attacker = await signUp(api(), { email: freshEmail("attacker") });
    const forger = new SoftAuthenticator(ORIGIN);
    const taken = await addPasskey(api(), attacker.token, forger, { credentialId: victim.credentialId });
    expect(taken).toMatchObject({ status: 409, body: { code: "CONFLICT" } });
    expect(await passkeysOf(attacker.token)).toEqual([]);
    expect(await passkeysOf(victim.token)).toHaveLength(1);

    // The forger's key under the victim's credential id, with either user handle: refused.
    for (const userHandle of [undefined, base64url(victim.id)]) {
      const response = forger.authenticate(await signInOptions(api()), victim.credentialId);
      if (userHandle) response.response.userHandle = userHandle;
      expect((await api().post("/api/user/login/passkey", { response }, on())).body.code).toBe("INVALID_PASSKEY");
    }
    const genuine = victim.device.authenticate(await signInOptions(api()));
    const signedIn = await api().post("/api/user/login/passkey", { response: genuine }, on());
    expect(signedIn.body.user.email).toBe(victim.email);
  });

  it("refuses a user handle naming another user than the passkey's owner", async () => {
    const victim = await signUp(api(), { email: freshEmail("handle-victim") });
    const attacker = await userWithPasskey("handle-attacker");
    const response = attacker.device.authenticate(await signInOptions(api()));
    // The user handle is outside what the authenticator signs: the signature still verifies.
    response.response.userHandle = base64url(victim.id);
    expect((await api().post("/api/user/login/passkey", { response }, on())).body.code).toBe("INVALID_PASSKEY");
    const own = attacker.device.authenticate(await signInOptions(api()));
    expect((await api().post("/api/user/login/passkey", { response: own }, on())).body.user.email).toBe(attacker.email);
  });

  it("refuses a cloned authenticator whose counter does not move on", async () => {
    const user = await userWithPasskey("clone");
    const signIn = async (device: SoftAuthenticator) =>
      (await api().post("/api/user/login/passkey", { response: device.authenticate(await signInOptions(api())) }, on())).status;
    const held = user.device.credentials.get(user.credentialId);
    if (!held) throw new Error("no credential");
    expect(await signIn(user.device)).toBe(200);
    const clone = new SoftAuthenticator(ORIGIN);
    for (const counter of [0, -1]) {
      // The clone signs with the counter the original had (equal to the stored one), then with 0.
      clone.credentials.set(user.credentialId, { ...held, counter });
      expect(await signIn(clone)).toBe(401);
    }
    expect(await signIn(user.device)).toBe(200);
  });

  it("refuses answers made for another relying party", async () => {
    const user = await userWithPasskey("rp");
    const options = await registrationOptions(api(), user.token);
    const elsewhere = new SoftAuthenticator(ORIGIN).register({ ...options, rp: { ...options.rp, id: "evil.example" } });
    expect((await api().post("/api/user/passkeys", { response: elsewhere }, on(user.token))).status).toBe(400);
    const held = user.device.credentials.get(user.credentialId);
    if (!held) throw new Error("no credential");
    user.device.credentials.set(user.credentialId, { ...held, rpId: "evil.example" });
    const response = user.device.authenticate(await signInOptions(api()));
    expect((await api().post("/api/user/login/passkey", { response }, on())).body.code).toBe("INVALID_PASSKEY");
  });

  it("without APP_URL takes the relying party from Host, an Origin of the same host only; a proxy that rewrites Host fails closed", async () => {
    const user = await signUp(api(), { email: freshEmail("host") });
    const evil = { host: "evil.example", origin: "http://evil.example" };
    const options = await api().post("/api/user/passkeys/options", undefined, { token: user.token, headers: evil });
    expect(options.body.rp.id).toBe("evil.example");
    const evilDevice = new SoftAuthenticator("http://evil.example");
    const added = await api().post(
      "/api/user/passkeys",
      { response: evilDevice.register(options.body) },
      { token: user.token, headers: evil },
    );
    expect(added.status).toBe(201);
    // Bound to evil.example: the app's own origin refuses it.
    const here = evilDevice.authenticate(await signInOptions(api()));
    expect((await api().post("/api/user/login/passkey", { response: here }, on())).status).toBe(401);
    // Another site's Origin is never the relying party's origin.
    const mixed = { host: "localhost:3000", origin: "http://evil.example" };
    const mixedOptions = await api().post("/api/user/passkeys/options", undefined, { token: user.token, headers: mixed });
    const mixedAnswer = new SoftAuthenticator("http://evil.example").register(mixedOptions.body);
    expect((await api().post("/api/user/passkeys", { response: mixedAnswer }, { token: user.token, headers: mixed })).status).toBe(400);
    // Behind a proxy that sends its own Host upstream, the browser's origin never matches.
    const proxied = { host: "app:3000", origin: "https://app.example" };
    const proxiedOptions = await api().post("/api/user/passkeys/options", undefined, { token: user.token, headers: proxied });
    expect(proxiedOptions.body.rp.id).toBe("app");
    const proxiedAnswer = new SoftAuthenticator("https://app.example").register({
      ...proxiedOptions.body,
      rp: { ...proxiedOptions.body.rp, id: "app.example" },
    });
    const refused = await api().post("/api/user/passkeys", { response: proxiedAnswer }, { token: user.token, headers: proxied });
    expect(refused.status).toBe(400);
  });

  it("refuses a cookie sign-in from another site before the answer is looked at, and cookie calls that change passkeys from it", async () => {
    const user = await userWithPasskey("cross-site");
    const response = user.device.authenticate(await signInOptions(api()));
    const crossSite: Record<string, string>[] = [
      { ...SAME_SITE, origin: "http://evil.example" },
      { ...SAME_SITE, origin: "null" },
      { host: SAME_SITE.host, "sec-fetch-site": "cross-site" },
      { host: SAME_SITE.host },
    ];
    for (const headers of crossSite) {
      const refused = await api().post("/api/user/login/passkey", { response, transport: "cookie" }, { headers });
      expect(refused).toMatchObject({ status: 403, body: { code: "FORBIDDEN_ORIGIN" } });
      expect(refused.headers.getSetCookie()).toEqual([]);
    }
    const mfaToken = await passwordStep(api(), user.email);
    const passkey = user.device.authenticate(await signInOptions(api(), mfaToken));
    const viaMfa = await api().post("/api/user/login/mfa", { mfaToken, passkey, transport: "cookie" }, { headers: crossSite[0] });
    expect(viaMfa.status).toBe(403);
    // Nothing was spent: the same answers work from the app's own origin.
    const signedIn = await api().post("/api/user/login/passkey", { response, transport: "cookie" }, on());
    expect(signedIn.status).toBe(200);
    expect((await api().post("/api/user/login/mfa", { mfaToken, passkey }, on())).status).toBe(200);

    const cookie = cookieHeader(signedIn);
    const fromEvil = { cookie, host: SAME_SITE.host, origin: "http://evil.example" };
    expect((await api().post("/api/user/passkeys/options", undefined, { headers: fromEvil })).status).toBe(403);
    expect((await api().delete(`/api/user/passkeys/${user.passkeyId}`, { headers: fromEvil })).status).toBe(403);
    expect(await passkeysOf(user.token)).toHaveLength(1);
    expect((await api().get("/api/user/passkeys", { headers: { cookie, host: SAME_SITE.host } })).body.items).toHaveLength(1);
  });

  it("lets exactly one of simultaneous sign-ins through: second steps with one mfaToken and one answer or two, one answer alone", async () => {
    const user = await userWithPasskey("race");
    const apis = [pair.first.api, pair.second.api];
    for (const answers of [1, 2]) {
      const mfaToken = await passwordStep(api(), user.email);
      const first = user.device.authenticate(await signInOptions(api(), mfaToken));
      const passkeys = answers === 1 ? [first, first] : [first, user.device.authenticate(await signInOptions(api(), mfaToken))];
      const results = await Promise.all(
        passkeys.map((passkey, index) =>
          apis[index]?.post("/api/user/login/mfa", { mfaToken, passkey }, on(undefined, `192.0.2.2${index}`)),
        ),
      );
      expect(results.map((result) => result?.status).sort()).toEqual([200, 401]);
    }
    const response = user.device.authenticate(await signInOptions(api()));
    const alone = await Promise.all(apis.map((client) => client.post("/api/user/login/passkey", { response }, on())));
    expect(alone.map((result) => result.status).sort()).toEqual([200, 401]);
  });

  it("removes no passkey of another user, says nothing of it, and revokes none of their sessions", async () => {
    const victim = await userWithPasskey("owned");
    const stranger = await userWithPasskey("stranger");
    for (const id of [victim.passkeyId, victim.credentialId, "00000000-0000-0000-0000-000000000000"]) {
      const answer = await api().delete(`/api/user/passkeys/${id}`, on(stranger.token));
      expect(answer).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
    }
    expect(await passkeysOf(victim.token)).toHaveLength(1);
    expect(await passkeysOf(stranger.token)).toHaveLength(1);
  });

  it("answers an unknown passkey and another user's exactly as any refused one, and lists no credential ids", async () => {
    const user = await userWithPasskey("leak");
    const other = await userWithPasskey("leak-other");
    const unknown = new SoftAuthenticator(ORIGIN);
    unknown.register(await registrationOptions(api(), other.token));
    const badSignature = user.device.authenticate(await signInOptions(api()));
    badSignature.response.signature = other.device.authenticate(await signInOptions(api())).response.signature;
    const alone = [unknown.authenticate(await signInOptions(api())), badSignature];
    const answers = [];
    for (const response of alone) answers.push(await api().post("/api/user/login/passkey", { response }, on(undefined, "192.0.2.30")));
    const mfaToken = await passwordStep(api(), user.email);
    const options = await signInOptions(api(), mfaToken);
    expect(options.allowCredentials?.map((credential) => credential.id)).toEqual([user.credentialId]);
    for (const passkey of [
      unknown.authenticate(options, [...unknown.credentials.keys()][0]),
      other.device.authenticate(options, other.credentialId),
    ]) {
      answers.push(await api().post("/api/user/login/mfa", { mfaToken, passkey }, on(undefined, "192.0.2.30")));
    }
    expect(new Set(answers.map((answer) => `${answer.status} ${answer.text}`))).toEqual(new Set([`401 ${answers[0]?.text}`]));
    expect((await signInOptions(api())).allowCredentials).toEqual([]);
    const listed = JSON.stringify(await passkeysOf(user.token));
    expect(listed).not.toContain(user.credentialId);
  });

  it("refuses oversized and deeply nested answers with a 4xx, never a 5xx", async () => {
    const user = await userWithPasskey("nested");
    const mfaToken = await passwordStep(api(), user.email);
    // Answers that reach the library and are refused there at the end (user verification), so
    // that whatever is nested in them is read first.
    const unverified = async (step?: string) =>
      user.device.authenticate(await signInOptions(api(), step), undefined, { userVerified: false });
    // Nested deeper than JSON.stringify can write: spliced into the text in place of DEEP.
    const DEEP = "(deep)";
    const deepJson = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const deepCbor = (depth: number) => Buffer.concat([Buffer.alloc(depth, 0x81), Buffer.from([0])]);
    /** The extension-data flag, with a deeply nested CBOR value after the counter. */
    const withDeepExtensions = (authenticatorData: string) => {
      const data = Buffer.from(authenticatorData, "base64url");
      const flags = Buffer.from([(data[32] ?? 0) | 0x80]);
      return base64url(Buffer.concat([data.subarray(0, 32), flags, data.subarray(33, 37), deepCbor(3000)]));
    };
    const extensions = await unverified();
    const registration = new SoftAuthenticator(ORIGIN).register(await registrationOptions(api(), user.token));
    const cases: [string, unknown, string?][] = [
      ["/api/user/login/passkey", { response: { ...(await unverified()), clientExtensionResults: { deep: DEEP } } }, deepJson(5000)],
      ["/api/user/login/passkey", { response: await unverified(), junk: DEEP }, deepJson(7000)],
      [
        "/api/user/login/passkey",
        {
          response: {
            ...extensions,
            response: { ...extensions.response, authenticatorData: withDeepExtensions(extensions.response.authenticatorData) },
          },
        },
      ],
      ["/api/user/login/passkey", { response: await unverified(), padding: "x".repeat(17 * 1024) }],
      ["/api/user/login/mfa", { mfaToken, passkey: { ...(await unverified(mfaToken)), clientExtensionResults: DEEP } }, deepJson(5000)],
      [
        "/api/user/passkeys",
        { response: { ...registration, response: { ...registration.response, attestationObject: base64url(deepCbor(6000)) } } },
      ],
      ["/api/user/passkeys", { response: registration, name: "x".repeat(17 * 1024) }],
    ];
    for (const [path, body, deep = ""] of cases) {
      const raw = JSON.stringify(body).replace(JSON.stringify(DEEP), deep);
      const headers = { ...on().headers, "content-type": "application/json" };
      const answer = await api().post(path, undefined, { token: user.token, headers, raw });
      expect(answer.status, `${path}: ${answer.text}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(500);
      expect(answer.body).toMatchObject({ code: expect.any(String) });
    }
  });

  it("refuses a sign-in whose passkey is removed after its answer is made, or while it is being verified", async () => {
    const user = await userWithPasskey("removed");
    const response = user.device.authenticate(await signInOptions(api()));
    expect((await api().delete(`/api/user/passkeys/${user.passkeyId}`, on(user.token))).status).toBe(204);
    expect((await api().post("/api/user/login/passkey", { response }, on())).status).toBe(401);

    for (const path of ["/api/user/login/passkey", "/api/user/login/mfa"]) {
      const again = await addPasskey(api(), user.token, user.device);
      expect(again.status).toBe(201);
      const mfaToken = path.endsWith("mfa") ? await passwordStep(api(), user.email) : undefined;
      const answer = user.device.authenticate(await signInOptions(api(), mfaToken), [...user.device.credentials.keys()].at(-1));
      const recordUse = Passkeys.prototype.recordUse;
      vi.spyOn(Passkeys.prototype, "recordUse").mockImplementationOnce(async function (this: Passkeys, ...args) {
        expect((await api().delete(`/api/user/passkeys/${again.body.id}`, on(user.token))).status).toBe(204);
        return recordUse.apply(this, args);
      });
      const inFlight = await api().post(path, mfaToken ? { mfaToken, passkey: answer } : { response: answer }, on());
      expect(inFlight.status, inFlight.text).toBe(401);
      expect(inFlight.body.token).toBeUndefined();
    }
  });

  it("keeps the anonymous options endpoint's challenges for two minutes at most: expired ones are purged", async () => {
    const before = await challengeRows();
    for (let call = 0; call < 50; call++) await signInOptions(api());
    expect(await challengeRows()).toBe(before + 50);
    pair.advance(121);
    await signInOptions(api());
    expect(await challengeRows()).toBe(1);
  });

  it("limits the anonymous options endpoint to 30 a minute per client address on every instance, then 429 with Retry-After and no row", async () => {
    const address = "192.0.2.77";
    const ask = (index: number) =>
      (index % 2 === 0 ? pair.first : pair.second).api.post("/api/user/login/passkey/options", {}, on(undefined, address));
    const before = await challengeRows();
    for (let call = 0; call < PASSKEY_OPTIONS_LIMITS.perAddress; call++) expect((await ask(call)).status, `call ${call + 1}`).toBe(200);
    expect(await challengeRows()).toBe(before + PASSKEY_OPTIONS_LIMITS.perAddress);
    for (let call = 0; call < 10; call++) {
      const refused = await ask(call);
      expect(refused.status, refused.text).toBe(429);
      expect(refused.body.code).toBe("TOO_MANY_ATTEMPTS");
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(PASSKEY_OPTIONS_LIMITS.windowSeconds);
    }
    // The refused calls wrote nothing; another address is not held back.
    expect(await challengeRows()).toBe(before + PASSKEY_OPTIONS_LIMITS.perAddress);
    expect((await api().post("/api/user/login/passkey/options", {}, on(undefined, "192.0.2.78"))).status).toBe(200);
  });

  it("counts a refused answer for a known passkey against its owner's email, an unknown passkey against nothing", async () => {
    const user = await userWithPasskey("throttle");
    const address = "192.0.2.40";
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.register(await registrationOptions(api(), user.token));
    const statuses = async (device: SoftAuthenticator, times: number, answering?: Answering) => {
      const seen: number[] = [];
      for (let attempt = 0; attempt < times; attempt++) {
        const response = device.authenticate(await signInOptions(api()), undefined, answering);
        seen.push((await api().post("/api/user/login/passkey", { response }, on(undefined, address))).status);
      }
      return seen;
    };
    expect(await statuses(stranger, 7)).toEqual([401, 401, 401, 401, 401, 401, 401]);
    // A success starts the email's count again.
    expect(await statuses(user.device, 4, { userVerified: false })).toEqual([401, 401, 401, 401]);
    expect(await statuses(user.device, 1)).toEqual([200]);
    expect(await statuses(user.device, 5, { userVerified: false })).toEqual([401, 401, 401, 401, 401]);
    // Locked: the right passkey and the right password alike.
    expect(await statuses(user.device, 1)).toEqual([429]);
    expect((await api().post("/api/user/login", { email: user.email, password: TEST_PASSWORD }, on(undefined, address))).status).toBe(429);
    expect(await statuses(stranger, 1)).toEqual([401]);
  });
});

describe.each(BACKENDS)("passkey enrolment tokens under attack on $name", (backend) => {
  const instance = useInstance(backend.create, `${BLOG_YAML}  mfa: { required: [Admin, Reader] }\n`);
  const api = () => instance.api;

  it("opens no passkey list, removal or sign-in to an enrolment token, and spends it once under two simultaneous registrations", async () => {
    const setup = await api().post("/api/user/setup", { email: "admin@example.com", password: TEST_PASSWORD }, on());
    const enrolment = setup.body.mfaToken;
    expect((await api().get("/api/user/passkeys", on(enrolment))).status).toBe(401);
    expect((await api().delete("/api/user/passkeys/anything", on(enrolment))).status).toBe(401);
    expect((await api().post("/api/user/login/passkey/options", { mfaToken: enrolment }, on())).body.code).toBe("INVALID_MFA_TOKEN");
    const responses = [];
    for (let device = 0; device < 2; device++) {
      responses.push(new SoftAuthenticator(ORIGIN).register(await registrationOptions(api(), enrolment)));
    }
    const results = await Promise.all(responses.map((response) => api().post("/api/user/passkeys", { response }, on(enrolment))));
    expect(results.map((result) => result.status).sort()).toEqual([201, 401]);
    const winner = results.find((result) => result.status === 201);
    expect((await api().get("/api/user/passkeys", on(winner?.body.token))).body.items).toHaveLength(1);
  });

  it("refuses every other enrolment token of a user once one of theirs has added a factor", async () => {
    const email = "reader@example.com";
    expect((await api().post("/api/user/register", { email, password: TEST_PASSWORD }, on())).status).toBe(201);
    const enrolments: string[] = [];
    for (let login = 0; login < 2; login++) {
      const answer = await api().post("/api/user/login", { email, password: TEST_PASSWORD }, on());
      expect(answer.body).toMatchObject({ mfaEnrollmentRequired: true });
      enrolments.push(answer.body.mfaToken);
    }
    const [used = "", stale = ""] = enrolments;
    const staleOptions = await registrationOptions(api(), stale);
    const added = await addPasskey(api(), used, new SoftAuthenticator(ORIGIN));
    expect(added.status).toBe(201);
    const late = new SoftAuthenticator(ORIGIN).register(staleOptions);
    const refused = await api().post("/api/user/passkeys", { response: late }, on(stale));
    expect(refused.status, refused.text).toBe(401);
    expect(refused.body.token).toBeUndefined();
    expect((await api().post("/api/user/passkeys/options", undefined, on(stale))).status).toBe(401);
    expect((await api().post("/api/user/mfa/totp", undefined, on(stale))).status).toBe(401);
    expect((await api().get("/api/user/passkeys", on(added.body.token))).body.items).toHaveLength(1);
  });
});
