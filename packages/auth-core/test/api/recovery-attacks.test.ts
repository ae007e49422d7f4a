import { randomUUID } from "node:crypto";
import { ADMIN, signIn, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { tokenOf } from "@domain-auth/test-support/mail-server";
import { parseSetCookie } from "cookie";
import { describe, expect, it } from "vitest";
import { ensureAdministrator } from "../../src/admin.js";
import { DEFAULT_REAUTH_WINDOW_SECONDS } from "../../src/sessions/lifetimes.js";
import { LOGIN_LIMITS } from "../../src/throttle/login-throttle.js";
import type { ApiClient, ApiResult, CallOptions } from "../support/client.js";
import { eventOf, readAllEvents, settled } from "../support/events.js";
import { useMailInstance } from "../support/mail.js";
import { currentCode, enrolTotp, passwordStep, wrongCode } from "../support/second-factors.js";
import { SoftAuthenticator } from "../support/soft-authenticator.js";
import { useStaleSessions } from "../support/stale-sessions.js";

/**
 * Sensitive actions (docs/security.md#sensitive-actions) attacked the way a thief would: a stale
 * stolen session or refresh token trying every way to add a factor or a key, odd bodies and
 * content types, races with the throttle and with the owner's recovery, a stolen API key trying to
 * write credentials anywhere or to outlive a recovery, and single-use tokens trying to outlive the
 * account's state. Each test asserts the defence; on both databases.
 */

const PASSKEY_SITE = { origin: "http://localhost:3000", host: "localhost:3000" };
const COOKIE_SITE = { origin: "http://localhost", host: "localhost" };
const KEYS = "/api/user/api-keys";
const TOTP = "/api/user/mfa/totp";
const PASSKEY_OPTIONS = "/api/user/passkeys/options";

/** The cookies an answer sets, as a `Cookie` header. */
function cookiesOf(answer: ApiResult): string {
  return answer.headers
    .getSetCookie()
    .map((line) => parseSetCookie(line))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join("; ");
}

describe.each(BACKENDS)("recovery attacks on $name", (backend) => {
  // Each request its own client address: the attacks count failures per email; the per-address lock would end them early.
  const test = useMailInstance(backend.create, `${BLOG_YAML}  mfa: { required: [Editor] }\n`, { clientAddress: () => randomUUID() });
  const api = (): ApiClient => test.api;
  const { freshEmail, admin, staleUser } = useStaleSessions(test);

  /** Every way a caller adds a credential, with `body` (none when undefined) and `options`. */
  function sensitive(options: CallOptions, body?: Record<string, unknown>): Promise<ApiResult>[] {
    return [
      api().post(TOTP, body, options),
      api().post(PASSKEY_OPTIONS, body, { ...options, headers: { ...PASSKEY_SITE, ...options.headers } }),
      api().post(KEYS, { name: "stolen", ...body }, options),
    ];
  }

  /** Nothing a thief could have added: no key, no TOTP row (pending or on), no passkey. */
  async function expectNothingMade(user: { id: string; token?: string }): Promise<void> {
    const keys = await test.database.db.selectFrom("domain_auth_api_keys").select("id").where("userId", "=", user.id).execute();
    expect(keys).toEqual([]);
    const totp = await test.database.db.selectFrom("domain_auth_totp").select("userId").where("userId", "=", user.id).execute();
    expect(totp).toEqual([]);
  }

  async function keyOf(token: string, body: Record<string, unknown> = {}): Promise<{ key: string; id: string }> {
    const made = await api().post(KEYS, { name: "bot", ...body }, { token });
    expect(made.status, made.text).toBe(201);
    return { key: made.body.key, id: made.body.id };
  }

  async function resetLink(email: string): Promise<string> {
    expect((await api().post("/api/user/forgot-password", { email })).status).toBe(202);
    return tokenOf(await test.mail.waitFor(email));
  }

  describe("a stolen, stale session", () => {
    it("gets 403 for currentPassword of every wrong type or size, never a 500, and makes nothing", async () => {
      const user = await staleUser("odd-password");
      const odd: unknown[] = [[user.password], 12345, null, true, { value: user.password }, "x".repeat(5000), "p".repeat(1025)];
      for (const currentPassword of odd) {
        for (const answer of await Promise.all(sensitive({ token: user.token }, { currentPassword }))) {
          expect(answer.status, `${JSON.stringify(currentPassword).slice(0, 40)}: ${answer.text}`).toBe(403);
          expect(answer.body.code).toBe("REAUTHENTICATION_REQUIRED");
        }
      }
      // Strings that are compared: each a failed sign-in (four, under the lock of five), none a 500.
      for (const currentPassword of ["", `${user.password}\u0000`, "\u20ac".repeat(1024), `${user.password}\ud800`]) {
        const answer = await api().post(KEYS, { name: "x", currentPassword }, { token: user.token });
        expect(answer.status, answer.text).toBe(403);
        expect(answer.body.issues).toEqual([{ path: ["currentPassword"], message: "is wrong" }]);
      }
      await expectNothingMade(user);
    });

    it("gets a clear 4xx for odd bodies and content types, never a 2xx or a 500", async () => {
      const user = await staleUser("odd-body");
      // No password in them: an odd framing must not make a stale session look recent. With the right
      // password a JSON body is fine whatever else (that is the owner), so these prove nothing more.
      const password = JSON.stringify({ name: "stolen" });
      const odd: CallOptions[] = [
        { raw: password, headers: { "content-type": "text/plain" } },
        { raw: password, headers: { "content-type": "application/x-www-form-urlencoded" } },
        { raw: `currentPassword=${encodeURIComponent(user.password)}`, headers: { "content-type": "application/x-www-form-urlencoded" } },
        { raw: JSON.stringify({ currentPassword: user.password }), headers: { "content-type": "text/plain" } },
        { raw: new TextEncoder().encode(JSON.stringify({ currentPassword: user.password })) },
        { raw: "{not json", headers: { "content-type": "application/json" } },
        { raw: "", headers: { "content-type": "application/json" } },
        { raw: "null", headers: { "content-type": "application/json" } },
        { raw: `[${password}]`, headers: { "content-type": "application/json" } },
        { raw: `"${user.password}"`, headers: { "content-type": "application/json" } },
        { raw: `{"currentPassword":"${user.password}","currentPassword":[]}`, headers: { "content-type": "application/json" } },
        { raw: password, headers: { "content-type": "application/json; charset=utf-16" } },
        { raw: `{"currentPassword":"${"a".repeat(2_000_000)}"}`, headers: { "content-type": "application/json" } },
      ];
      for (const options of odd) {
        const calls = [
          api().call("POST", TOTP, undefined, { ...options, token: user.token }),
          api().call("POST", PASSKEY_OPTIONS, undefined, {
            ...options,
            token: user.token,
            headers: { ...PASSKEY_SITE, ...options.headers },
          }),
          api().call("POST", KEYS, undefined, { ...options, token: user.token }),
        ];
        for (const answer of await Promise.all(calls)) {
          const what = `${options.headers?.["content-type"]} ${String(options.raw).slice(0, 30)}`;
          expect(answer.status, `${what}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(answer.status, what).toBeLessThan(500);
          expect(answer.body?.code, what).toEqual(expect.any(String));
        }
      }
      await expectNothingMade(user);
    });

    it("stays stale through a chain of refreshes, the cookie transport included", async () => {
      const user = await staleUser("refresh-chain");
      let refreshToken = user.refreshToken;
      let token = user.token;
      for (let round = 0; round < 3; round++) {
        const refreshed = await api().post("/api/user/refresh", { refreshToken });
        expect(refreshed.status, refreshed.text).toBe(200);
        ({ refreshToken, token } = refreshed.body);
      }
      for (const answer of await Promise.all(sensitive({ token }))) expect(answer.body.code).toBe("REAUTHENTICATION_REQUIRED");
      // Moving the refresh token into cookies starts nothing new either.
      const toCookies = await api().post("/api/user/refresh", { refreshToken, transport: "cookie" }, { headers: COOKIE_SITE });
      expect(toCookies.status, toCookies.text).toBe(200);
      const cookie = cookiesOf(toCookies);
      expect(cookie).toContain("domain-auth.token=");
      const viaCookie = await api().post(KEYS, { name: "stolen" }, { headers: { ...COOKIE_SITE, cookie } });
      expect(viaCookie.body.code, viaCookie.text).toBe("REAUTHENTICATION_REQUIRED");
      const totpViaCookie = await api().post(TOTP, undefined, { headers: { ...COOKIE_SITE, cookie } });
      expect(totpViaCookie.body.code, totpViaCookie.text).toBe("REAUTHENTICATION_REQUIRED");
      // Another site's page cannot ride the cookies at all.
      const crossSite = await api().post(
        KEYS,
        { name: "stolen" },
        { headers: { cookie, origin: "https://evil.example", host: "localhost" } },
      );
      expect(crossSite.status).toBe(403);
      expect(crossSite.body.code).toBe("FORBIDDEN_ORIGIN");
      await expectNothingMade(user);
    });

    it("races many requests at once: every one refused, and wrong passwords in parallel lock like login", async () => {
      const user = await staleUser("race");
      const bare = await Promise.all(Array.from({ length: 6 }, () => sensitive({ token: user.token })).flat());
      expect(bare.map((answer) => answer.body.code)).toEqual(bare.map(() => "REAUTHENTICATION_REQUIRED"));
      const guesses = 4 * LOGIN_LIMITS.failuresPerEmail;
      const wrong = await Promise.all(
        Array.from({ length: guesses }, (_, index) =>
          api().post(KEYS, { name: "x", currentPassword: `guess ${index}` }, { token: user.token }),
        ),
      );
      for (const answer of wrong) expect([403, 429], answer.text).toContain(answer.status);
      // Every guess compared was counted first: no more than the lock allows got an answer on the password.
      const compared = wrong.filter((answer) => answer.status === 403).length;
      expect(compared).toBeLessThanOrEqual(LOGIN_LIMITS.failuresPerEmail);
      const right = await api().post(KEYS, { name: "x", currentPassword: user.password }, { token: user.token });
      expect(right.status).toBe(429);
      await expectNothingMade(user);
    });

    it("cannot use the intercepted second step of a login (its mfaToken) as a bearer for a sensitive action", async () => {
      const user = await signUp(api(), { email: freshEmail("second-step") });
      await enrolTotp(api(), test.auth, user.token);
      test.advance(30);
      const mfaToken = await passwordStep(api(), user.email, user.password);
      for (const answer of await Promise.all(sensitive({ token: mfaToken }))) {
        expect(answer.status, answer.text).toBe(401);
      }
      expect((await api().post("/api/user/mfa/totp/confirm", { code: "123456" }, { token: mfaToken })).status).toBe(401);
    });

    it("cannot register a passkey without fresh options: an answer to a sign-in challenge is refused", async () => {
      const user = await staleUser("passkey");
      const options = await api().post(PASSKEY_OPTIONS, undefined, { token: user.token, headers: PASSKEY_SITE });
      expect(options.body.code).toBe("REAUTHENTICATION_REQUIRED");
      // Borrow a challenge the anonymous sign-in hands out and shape registration options around it.
      const signInOptions = await api().post("/api/user/login/passkey/options", {}, { headers: PASSKEY_SITE });
      expect(signInOptions.status, signInOptions.text).toBe(200);
      const device = new SoftAuthenticator(PASSKEY_SITE.origin);
      const forged = device.register({
        challenge: signInOptions.body.challenge,
        rp: { id: "localhost", name: "blog" },
        user: { id: Buffer.from(user.id).toString("base64url"), name: user.email, displayName: user.email },
        pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      });
      const added = await api().post("/api/user/passkeys", { response: forged }, { token: user.token, headers: PASSKEY_SITE });
      expect(added.status, added.text).toBe(400);
      expect((await api().get("/api/user/passkeys", { token: user.token })).body.items).toEqual([]);
    });

    it("cannot confirm the pending TOTP secret the owner left behind by guessing codes", async () => {
      // The owner starts TOTP on a fresh session and walks away before confirming it.
      const owner = await signUp(api(), { email: freshEmail("pending") });
      const started = await api().post(TOTP, undefined, { token: owner.token });
      expect(started.status).toBe(200);
      const secret = String(started.body.secret);
      test.advance(DEFAULT_REAUTH_WINDOW_SECONDS + 1);
      // The thief holds the stale token and guesses: codes are one in a million, so guessing must be
      // refused or throttled. A burst of wrong guesses, then the right one standing for the lucky guess.
      for (let guess = 0; guess < 2 * LOGIN_LIMITS.failuresPerEmail; guess++) {
        const wrong = await api().post("/api/user/mfa/totp/confirm", { code: wrongCode(test.auth, secret) }, { token: owner.token });
        expect(wrong.status).toBeGreaterThanOrEqual(400);
        expect(wrong.status).toBeLessThan(500);
      }
      const lucky = await api().post("/api/user/mfa/totp/confirm", { code: currentCode(test.auth, secret) }, { token: owner.token });
      expect(lucky.status, lucky.text).not.toBe(200);
      // The owner still signs in with the password alone: nobody turned a factor on behind their back.
      const login = await api().post("/api/user/login", { email: owner.email, password: owner.password });
      expect(login.body.token, login.text).toEqual(expect.any(String));
    });
  });

  describe("a stolen, stale administrator session", () => {
    it("cannot mint a permanent way back in: a new administrator, a promoted account, a password it knows", async () => {
      // A session copied for a moment must not make itself permanent: each of these would give the
      // thief a sign-in of their own (docs/security.md#sensitive-actions).
      const administrator = await admin();
      const accomplice = await signUp(api(), { email: freshEmail("accomplice") });
      const victim = await signUp(api(), { email: freshEmail("victim") });
      test.advance(DEFAULT_REAUTH_WINDOW_SECONDS + 1);
      const thief = { email: freshEmail("thief-admin"), password: "a long enough password" };
      const created = await api().post("/api/user", { ...thief, role: "Admin" }, { token: administrator.token });
      expect.soft(created.status, `new administrator: ${created.text}`).toBe(403);
      const promoted = await api().patch(`/api/user/${accomplice.id}`, { role: "Admin" }, { token: administrator.token });
      expect.soft(promoted.status, `promotion: ${promoted.text}`).toBe(403);
      const taken = await api().patch(`/api/user/${victim.id}`, { password: "the thief knows this one" }, { token: administrator.token });
      expect.soft(taken.status, `password set: ${taken.text}`).toBe(403);
      for (const answer of [created, promoted, taken]) {
        if (answer.status === 403) expect.soft(answer.body.code).toBe("REAUTHENTICATION_REQUIRED");
      }
    });
  });

  describe("a stolen API key", () => {
    it("creates no user that could sign in, through a user's key or an administrator's", async () => {
      const administrator = await admin();
      const reader = await signUp(api(), { email: freshEmail("key-reader") });
      const keys = [
        (await keyOf(administrator.token, { scopes: ["user:create", "user:update", "user:delete"] })).key,
        (await keyOf(reader.token)).key,
      ];
      const email = freshEmail("key-made");
      const bodies: Record<string, unknown>[] = [
        { email, password: "a long enough password", role: "Admin" },
        { email, password: "a long enough password" },
        { email, role: "Editor" },
        { email },
        { EMAIL: email, password: "a long enough password" },
        JSON.parse(`{"__proto__": {"email": "${email}", "password": "a long enough password"}}`),
        { name: "no credentials" },
        { email: [email], password: ["a long enough password"] },
        { email, password: "a long enough password", role: ["Admin"] },
      ];
      for (const key of keys) {
        for (const body of bodies) {
          const answer = await api().post("/api/user", body, { token: key });
          expect(answer.status, `${JSON.stringify(body)}: ${answer.text}`).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        }
      }
      expect((await api().post("/api/user/login", { email, password: "a long enough password" })).status).toBe(401);
    });

    it("changes nobody's password, email or role whatever the spelling, and leaves them as they were", async () => {
      const administrator = await admin();
      const { key } = await keyOf(administrator.token);
      const target = await signUp(api(), { email: freshEmail("key-target") });
      const attempts: [string, Record<string, unknown>][] = [
        [target.id, { role: "Admin" }],
        [target.id, { role: "admin" }],
        [target.id, { role: null }],
        [target.id, { role: "Reader", email: freshEmail("moved") }],
        [target.id, { email: target.email.toUpperCase() }],
        [target.id, { email: ` ${target.email} ` }],
        [target.id, { password: "taken over password", currentPassword: target.password }],
        [target.id, { password: "" }],
        [target.id, { passwordHash: "$2b$04$abcdefghijklmnopqrstuv" }],
        [target.id, { tokenVersion: 0 }],
        [target.id, { emailVerified: true }],
        [target.id, { role: ["Admin"] }],
        [target.id, { role: { toString: "Admin" } }],
        [target.id, { email: [freshEmail("array")] }],
        [target.id, { password: 12345678901234 }],
        [administrator.id, { role: "Reader" }],
        [administrator.id, { password: "taken over password", currentPassword: ADMIN.password }],
        [administrator.id, { email: freshEmail("admin-moved") }],
      ];
      for (const [id, body] of attempts) {
        const answer = await api().patch(`/api/user/${id}`, body, { token: key });
        const what = `${JSON.stringify(body)}: ${answer.text}`;
        expect(answer.status, what).toBeLessThan(500);
        // The same address in another case is no change (it is stored normalized): a 200 then writes nothing.
        if (answer.status === 200) expect(answer.body.item, what).toMatchObject({ email: target.email, role: "Reader" });
        else expect(answer.status, what).toBeGreaterThanOrEqual(400);
      }
      const after = await signIn(api(), { email: target.email, password: target.password });
      expect(after.role).toBe("Reader");
      expect((await signIn(api(), ADMIN)).role).toBe("Admin");
      // The target's session was not ended by any of it (nothing was written).
      expect((await api().get("/api/user/me", { token: target.token })).status).toBe(200);
    });

    it("is refused on every session, factor and key endpoint", async () => {
      const owner = await signUp(api(), { email: freshEmail("key-endpoints") });
      const { key, id } = await keyOf(owner.token);
      const calls: [string, string, unknown][] = [
        ["POST", KEYS, { name: "another" }],
        ["DELETE", `${KEYS}/${id}`, undefined],
        ["POST", TOTP, undefined],
        ["POST", "/api/user/mfa/totp/confirm", { code: "123456" }],
        ["POST", "/api/user/mfa/recovery-codes", { currentPassword: owner.password }],
        ["POST", PASSKEY_OPTIONS, undefined],
        ["POST", "/api/user/passkeys", { response: {} }],
        ["POST", "/api/user/refresh", { refreshToken: owner.refreshToken }],
        ["GET", "/api/user/sessions", undefined],
        ["DELETE", "/api/user/sessions", undefined],
        ["POST", "/api/user/logout", undefined],
      ];
      for (const [method, path, body] of calls) {
        const answer = await api().call(method, path, body, { token: key, headers: PASSKEY_SITE });
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
        expect(answer.body.code).toBe("FORBIDDEN");
      }
      expect((await api().get("/api/user/me", { token: key })).status).toBe(200);
      expect((await api().get("/api/user/me", { token: owner.token })).status).toBe(200);
    });

    it("outlives the owner's email change (not a recovery), then dies with the reset sent to the new address", async () => {
      const owner = await signUp(api(), { email: freshEmail("moves") });
      const { key, id } = await keyOf(owner.token);
      const email = freshEmail("moved-to");
      const moved = await api().patch(`/api/user/${owner.id}`, { email, currentPassword: owner.password }, { token: owner.token });
      expect(moved.status, moved.text).toBe(200);
      expect((await api().get("/api/user/me", { token: key })).body.user.email).toBe(email);
      const reset = await api().post("/api/user/reset-password", { token: await resetLink(email), password: "a brand new passphrase" });
      expect(reset.status, reset.text).toBe(200);
      expect((await api().get("/api/user/me", { token: key })).status).toBe(401);
      await settled(test.auth);
      const events = await readAllEvents(api(), (await admin()).token, { userId: owner.id, type: "api_key.revoked" });
      expect(eventOf(events, "api_key.revoked").detail).toMatchObject({ keyId: id, reason: "password_reset" });
    });

    it("dies when the administrator command sets the user's password", async () => {
      const owner = await signUp(api(), { email: freshEmail("rescued") });
      const { key, id } = await keyOf(owner.token);
      await ensureAdministrator(test.auth, { email: owner.email, password: "set by the rescue command" });
      expect((await api().get("/api/user/me", { token: key })).status).toBe(401);
      await settled(test.auth);
      const events = await readAllEvents(api(), (await admin()).token, { userId: owner.id, type: "api_key.revoked" });
      expect(eventOf(events, "api_key.revoked").detail).toMatchObject({ keyId: id, reason: "password_set_by_admin", via: "admin_command" });
    });

    it.each(["a reset", "a password set by an administrator"] as const)(
      "cannot slip a key in while %s commits: no key made in the race survives it",
      async (recovery) => {
        const owner = await signUp(api(), { email: freshEmail("race-recovery") });
        const administrator = await admin();
        const link = recovery === "a reset" ? await resetLink(owner.email) : "";
        const recover =
          recovery === "a reset"
            ? api().post("/api/user/reset-password", { token: link, password: "a brand new passphrase" })
            : api().patch(`/api/user/${owner.id}`, { password: "set by the administrator" }, { token: administrator.token });
        let done = false;
        void recover.finally(() => {
          done = true;
        });
        // The thief's script keeps asking for keys with the (still recent) stolen token meanwhile.
        const made: Promise<ApiResult>[] = [];
        for (let round = 0; round < 60 && !done; round++) {
          made.push(api().post(KEYS, { name: `race ${round}` }, { token: owner.token }));
          await new Promise((resolve) => setImmediate(resolve));
        }
        expect((await recover).status).toBe(200);
        const answers = await Promise.all(made);
        for (const answer of answers) expect([201, 401], answer.text).toContain(answer.status);
        const issued = answers.filter((answer) => answer.status === 201).map((answer) => String(answer.body.key));
        const working = (await Promise.all(issued.map((key) => api().get("/api/user/me", { token: key })))).filter(
          (me) => me.status === 200,
        );
        expect(working.length, `${issued.length} keys answered 201, ${working.length} still work after ${recovery}`).toBe(0);
        const survivors = await test.database.db.selectFrom("domain_auth_api_keys").select("id").where("userId", "=", owner.id).execute();
        expect(survivors).toEqual([]);
      },
    );
  });

  describe("single-use tokens after the account changed", () => {
    it("refuses an mfa token after the owner's own email change and after an administrator set the password", async () => {
      for (const change of ["email", "admin-password"] as const) {
        const user = await signUp(api(), { email: freshEmail(`mfa-${change}`) });
        const { secret } = await enrolTotp(api(), test.auth, user.token);
        test.advance(30);
        const mfaToken = await passwordStep(api(), user.email, user.password);
        // The owner signs in again (the thief holds the first mfa token) and changes things.
        test.advance(30);
        const again = await passwordStep(api(), user.email, user.password);
        const session = await api().post("/api/user/login/mfa", { mfaToken: again, code: currentCode(test.auth, secret) });
        expect(session.status, session.text).toBe(200);
        const changed =
          change === "email"
            ? await api().patch(
                `/api/user/${user.id}`,
                { email: freshEmail("new"), currentPassword: user.password },
                { token: session.body.token },
              )
            : await api().patch(`/api/user/${user.id}`, { password: "set by the administrator" }, { token: (await admin()).token });
        expect(changed.status, changed.text).toBe(200);
        test.advance(30);
        const second = await api().post("/api/user/login/mfa", { mfaToken, code: currentCode(test.auth, secret) });
        expect(second.status, change).toBe(401);
        expect(second.body.code).toBe("INVALID_MFA_TOKEN");
      }
    });

    it("refuses an enrolment token after a reset, and after an email change by an administrator", async () => {
      for (const change of ["reset", "admin-email"] as const) {
        const user = await signUp(api(), { email: freshEmail(`enrol-${change}`) });
        const promoted = await api().patch(`/api/user/${user.id}`, { role: "Editor" }, { token: (await admin()).token });
        expect(promoted.status, promoted.text).toBe(200);
        const login = await api().post("/api/user/login", { email: user.email, password: user.password });
        expect(login.body).toMatchObject({ mfaEnrollmentRequired: true });
        const enrolment = String(login.body.mfaToken);
        if (change === "reset") {
          const reset = await api().post("/api/user/reset-password", {
            token: await resetLink(user.email),
            password: "a brand new passphrase",
          });
          expect(reset.status, reset.text).toBe(200);
        } else {
          const moved = await api().patch(`/api/user/${user.id}`, { email: freshEmail("enrol-moved") }, { token: (await admin()).token });
          expect(moved.status, moved.text).toBe(200);
        }
        for (const answer of await Promise.all(sensitive({ token: enrolment }))) {
          expect([401, 403], `${change}: ${answer.text}`).toContain(answer.status);
        }
        expect((await api().post("/api/user/mfa/totp/confirm", { code: "123456" }, { token: enrolment })).status).toBe(401);
        await expectNothingMade(user);
      }
    });
  });
});
