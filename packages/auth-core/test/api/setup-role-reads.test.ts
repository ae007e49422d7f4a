import { type SignedIn, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { findLeaks } from "@domain-auth/test-support/leaks";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiResult } from "../support/client.js";
import { useInstance } from "../support/instance.js";
import { enrolTotp, type TotpHolder } from "../support/second-factors.js";
import { SoftAuthenticator } from "../support/soft-authenticator.js";

/**
 * What the setup role may read about another user (docs/api.md#sessions, docs/api.md#second-factors):
 * `GET sessions?userId=`, `GET passkeys?userId=` and `GET mfa/totp?userId=` on both databases. The
 * setup role reads anyone's, anyone else only their own (403 for another's), an unknown user is 404,
 * and no answer holds a token, a hash, a TOTP secret, a code or a credential.
 */

/** The app's own origin as a browser calls it in development: the passkeys' relying party is `localhost`. */
const ORIGIN = "http://localhost:3000";
const SAME_SITE = { headers: { origin: ORIGIN, host: "localhost:3000" } };

const SESSION_KEYS = ["createdAt", "current", "expiresAt", "id", "refreshedAt", "userAgent"];
const PASSKEY_KEYS = ["createdAt", "id", "lastUsedAt", "name"];

describe.each(BACKENDS)("the setup role's reads of another user on $name", (backend) => {
  const instance = useInstance(backend.create);
  const api = () => instance.api;
  let admin: SignedIn;
  /** The reader's first session (of the sign-up), and the reader signed in again through the second step. */
  let first: SignedIn;
  let reader: SignedIn;
  let readerTotp: TotpHolder;
  let device: SoftAuthenticator;
  /** Every secret the reader's accounts hold, none of which an answer may carry. */
  let secrets: string[];

  beforeAll(async () => {
    admin = await setUpAdmin(api());
    const registered = await signUp(api(), { email: "reader@example.com" });
    first = registered;
    readerTotp = await enrolTotp(api(), instance.auth, registered.token);
    device = new SoftAuthenticator(ORIGIN);
    const options = await api().post("/api/user/passkeys/options", undefined, { ...SAME_SITE, token: registered.token });
    expect(options.status, options.text).toBe(200);
    const response = device.register(options.body as PublicKeyCredentialCreationOptionsJSON);
    const added = await api().post("/api/user/passkeys", { response, name: "Laptop" }, { ...SAME_SITE, token: registered.token });
    expect(added.status, added.text).toBe(201);
    // A second session, through the second step with a recovery code: 9 codes are left.
    const step = await api().post("/api/user/login", { email: registered.email, password: TEST_PASSWORD });
    expect(step.body).toMatchObject({ mfaRequired: true, methods: ["totp", "recovery", "passkey"] });
    const { mfaToken } = step.body;
    const [recoveryCode] = readerTotp.recoveryCodes;
    const second = await api().post("/api/user/login/mfa", { mfaToken, recoveryCode });
    expect(second.status, second.text).toBe(200);
    reader = { ...registered, token: second.body.token, refreshToken: second.body.refreshToken };
    secrets = [
      readerTotp.secret,
      ...readerTotp.recoveryCodes,
      registered.token,
      registered.refreshToken,
      reader.token,
      reader.refreshToken,
      ...device.credentials.keys(),
    ];
  });

  /** Fails when an answer gives any secret away. */
  function expectNoSecret(answer: ApiResult): void {
    expect(findLeaks(answer)).toEqual([]);
    for (const secret of secrets) expect(answer.text).not.toContain(secret);
    expect(answer.text).not.toMatch(/secret|hash|publicKey|credential|token|code"/i);
  }

  it("gives the setup role another user's live sessions, none of them current, as that user lists them", async () => {
    const theirs = await api().get(`/api/user/sessions?userId=${reader.id}`, { token: admin.token });
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.headers.get("cache-control")).toBe("no-store");
    expectNoSecret(theirs);
    const own = await api().get("/api/user/sessions", { token: reader.token });
    expect(own.status).toBe(200);
    expect(own.body.items.map((item: { current: boolean }) => item.current)).toEqual([true, false]);
    expect(theirs.body.items).toEqual(own.body.items.map((item: Record<string, unknown>) => ({ ...item, current: false })));
    for (const item of theirs.body.items) expect(Object.keys(item).sort()).toEqual(SESSION_KEYS);
    // A session that ended is not listed.
    expect((await api().post("/api/user/logout", undefined, { token: first.token })).status).toBe(204);
    const after = await api().get(`/api/user/sessions?userId=${reader.id}`, { token: admin.token });
    expect(after.body.items).toEqual([{ ...own.body.items[0], current: false }]);
  });

  it("gives the setup role another user's passkeys: names and times, never a credential", async () => {
    const theirs = await api().get(`/api/user/passkeys?userId=${reader.id}`, { token: admin.token });
    expect(theirs.status, theirs.text).toBe(200);
    expectNoSecret(theirs);
    expect(theirs.body.items).toEqual([{ id: expect.any(String), name: "Laptop", createdAt: expect.any(String), lastUsedAt: null }]);
    expect(Object.keys(theirs.body.items[0]).sort()).toEqual(PASSKEY_KEYS);
    const own = await api().get("/api/user/passkeys", { token: reader.token });
    expect(own.body).toEqual(theirs.body);
    expect((await api().get(`/api/user/passkeys?userId=${admin.id}`, { token: admin.token })).body).toEqual({ items: [] });
  });

  it("tells whether two-step verification is on and how many recovery codes are left: the caller's, or the setup role's pick", async () => {
    const theirs = await api().get(`/api/user/mfa/totp?userId=${reader.id}`, { token: admin.token });
    expect(theirs.status, theirs.text).toBe(200);
    expectNoSecret(theirs);
    // Ten codes, one spent signing in.
    expect(theirs.body).toEqual({ enabled: true, recoveryCodesLeft: 9 });
    expect((await api().get("/api/user/mfa/totp", { token: reader.token })).body).toEqual(theirs.body);
    expect((await api().get(`/api/user/mfa/totp?userId=${reader.id}`, { token: reader.token })).body).toEqual(theirs.body);
    expect((await api().get("/api/user/mfa/totp", { token: admin.token })).body).toEqual({ enabled: false, recoveryCodesLeft: 0 });
  });

  it("counts a secret pending confirmation as off", async () => {
    const pending = await signUp(api(), { email: "pending@example.com" });
    const started = await api().post("/api/user/mfa/totp", undefined, { token: pending.token });
    expect(started.status, started.text).toBe(200);
    const status = await api().get(`/api/user/mfa/totp?userId=${pending.id}`, { token: admin.token });
    expect(status.body).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(status.text).not.toContain(started.body.secret);
  });

  it.each([
    ["sessions", "/api/user/sessions"],
    ["passkeys", "/api/user/passkeys"],
    ["two-step status", "/api/user/mfa/totp"],
  ])("%s: 403 for anyone else naming another user, 200 for their own, 404 for an unknown user, 401 anonymous", async (_label, path) => {
    const other = await api().get(`${path}?userId=${admin.id}`, { token: reader.token });
    expect(other, other.text).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    const own = await api().get(`${path}?userId=${reader.id}`, { token: reader.token });
    expect(own.status, own.text).toBe(200);
    expectNoSecret(own);
    expect((await api().get(`${path}?userId=no-such-user`, { token: admin.token })).body).toMatchObject({ code: "NOT_FOUND" });
    expect((await api().get(`${path}?userId=no-such-user`, { token: admin.token })).status).toBe(404);
    // Another's id is refused before anything is looked up: an unknown one too.
    expect((await api().get(`${path}?userId=no-such-user`, { token: reader.token })).status).toBe(403);
    expect((await api().get(`${path}?userId=${reader.id}`)).status).toBe(401);
  });

  it("refuses an API key, the setup role's included, as every operation but me refuses one", async () => {
    const created = await api().post("/api/user/api-keys", { name: "reads" }, { token: (await signIn(api(), admin)).token });
    expect(created.status, created.text).toBe(201);
    for (const path of ["/api/user/sessions", "/api/user/passkeys", "/api/user/mfa/totp"]) {
      const answer = await api().get(`${path}?userId=${reader.id}`, { token: created.body.key });
      expect(answer, `${path}: ${answer.text}`).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    }
  });
});
