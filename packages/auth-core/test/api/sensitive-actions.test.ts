import { type SignedIn, setUpAdmin, signIn, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { tokenOf } from "@domain-auth/test-support/mail-server";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_REAUTH_WINDOW_SECONDS } from "../../src/sessions/lifetimes.js";
import { LOGIN_LIMITS } from "../../src/throttle/login-throttle.js";
import type { ApiClient } from "../support/client.js";
import { eventOf, readAllEvents, settled } from "../support/events.js";
import { useInstance } from "../support/instance.js";
import { useMailInstance } from "../support/mail.js";
import { currentCode, enrolTotp, passwordStep } from "../support/second-factors.js";
import { useStaleSessions } from "../support/stale-sessions.js";

/**
 * Sensitive actions (docs/security.md#sensitive-actions) on both databases: what a stolen session
 * or a stolen API key can no longer do. Adding a factor or a key needs a recent sign-in or the
 * password; a key never writes credentials or roles; a recovery revokes every key; single-use
 * tokens die when the account's state changes.
 */

const SAME_SITE = { origin: "http://localhost:3000", host: "localhost:3000" };
const KEYS = "/api/user/api-keys";

describe.each(BACKENDS)("sensitive actions on $name", (backend) => {
  const test = useMailInstance(backend.create);
  const api = (): ApiClient => test.api;
  const { freshEmail, admin, staleUser } = useStaleSessions(test);

  /** The three ways to add a credential a stolen session would try, as a request each. */
  function sensitiveRequests(token: string, body: Record<string, unknown> = {}) {
    return [
      api().post("/api/user/mfa/totp", Object.keys(body).length ? body : undefined, { token }),
      api().post("/api/user/passkeys/options", Object.keys(body).length ? body : undefined, { token, headers: SAME_SITE }),
      api().post(KEYS, { name: "stolen", ...body }, { token }),
    ];
  }

  describe("a recent sign-in", () => {
    it("lets a session that signed in within the window add a factor or a key without its password", async () => {
      const user = await signUp(api(), { email: freshEmail("fresh") });
      test.advance(DEFAULT_REAUTH_WINDOW_SECONDS - 5);
      const answers = await Promise.all(sensitiveRequests(user.token));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 201]);
    });

    it("refuses a stale session 403 REAUTHENTICATION_REQUIRED, before the body, and nothing is made", async () => {
      const user = await staleUser("stale");
      for (const answer of await Promise.all(sensitiveRequests(user.token))) {
        expect(answer.status, answer.text).toBe(403);
        expect(answer.body.code).toBe("REAUTHENTICATION_REQUIRED");
      }
      // The key's body is not looked at before the sign-in is settled: a bad name is still a 403.
      const badName = await api().post(KEYS, { name: "" }, { token: user.token });
      expect(badName.body.code).toBe("REAUTHENTICATION_REQUIRED");
      expect((await api().get(KEYS, { token: user.token })).body.items).toEqual([]);
      const pending = await test.database.db.selectFrom("domain_auth_totp").selectAll().where("userId", "=", user.id).execute();
      expect(pending).toEqual([]);
    });

    it("is not renewed by a refresh: the moment is the session's sign-in", async () => {
      const user = await staleUser("refreshed");
      const refreshed = await api().post("/api/user/refresh", { refreshToken: user.refreshToken });
      expect(refreshed.status).toBe(200);
      const answer = await api().post("/api/user/mfa/totp", undefined, { token: refreshed.body.token });
      expect(answer.body.code).toBe("REAUTHENTICATION_REQUIRED");
      // A new sign-in is recent again.
      const again = await signIn(api(), { email: user.email, password: user.password });
      expect((await api().post("/api/user/mfa/totp", undefined, { token: again.token })).status).toBe(200);
    });

    it("accepts the current password in the body instead, and answers as usual", async () => {
      const user = await staleUser("with-password");
      const answers = await Promise.all(sensitiveRequests(user.token, { currentPassword: user.password }));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 201]);
      expect(answers[2]?.body).toMatchObject({ name: "stolen", key: expect.stringMatching(/^da_/) });
      expect(answers[2]?.body).not.toHaveProperty("currentPassword");
      // The rest of the body is still checked after the password.
      const unknownKey = await api().post("/api/user/mfa/totp", { currentPassword: user.password, secret: "mine" }, { token: user.token });
      expect(unknownKey).toMatchObject({ status: 400, body: { code: "INVALID_BODY" } });
    });

    it("counts a wrong current password as a failed sign-in, and locks like login", async () => {
      const user = await staleUser("wrong-password");
      const wrong = await api().post(KEYS, { name: "x", currentPassword: "not the password" }, { token: user.token });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ code: "REAUTHENTICATION_REQUIRED", issues: [{ path: ["currentPassword"], message: "is wrong" }] });
      await settled(test.auth);
      const events = await readAllEvents(api(), (await admin()).token, { userId: user.id, type: "login.failed" });
      expect(eventOf(events, "login.failed").detail).toMatchObject({ reason: "wrong_current_password" });
      for (let attempt = 1; attempt < LOGIN_LIMITS.failuresPerEmail; attempt++) {
        await api().post("/api/user/mfa/totp", { currentPassword: `wrong ${attempt}` }, { token: user.token });
      }
      const locked = await api().post("/api/user/mfa/totp", { currentPassword: user.password }, { token: user.token });
      expect(locked.status).toBe(429);
      expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await api().get(KEYS, { token: user.token })).body.items).toEqual([]);
    });

    it("stops the review's lock-out: a stolen, stale token can turn on neither TOTP nor a passkey", async () => {
      const owner = await staleUser("victim");
      const stolen = owner.token;
      const started = await api().post("/api/user/mfa/totp", undefined, { token: stolen });
      expect(started.body.code).toBe("REAUTHENTICATION_REQUIRED");
      const confirm = await api().post("/api/user/mfa/totp/confirm", { code: "123456" }, { token: stolen });
      expect(confirm.status).toBe(409);
      const login = await api().post("/api/user/login", { email: owner.email, password: owner.password });
      expect(login.status).toBe(200);
      expect(login.body.token).toEqual(expect.any(String));
    });
  });

  describe("API keys and credentials", () => {
    it("never creates a user through a key, an administrator's with user:create included, and writes nothing", async () => {
      const { body: created } = await api().post(
        KEYS,
        { name: "admin bot", scopes: ["user:create", "user:update"] },
        { token: (await admin()).token },
      );
      const bodies = [
        { email: "keymade@example.com", password: "a long enough password", role: "Admin" },
        { email: "keymade@example.com", password: "a long enough password" },
        { email: "keymade@example.com" },
      ];
      for (const body of bodies) {
        const answer = await api().post("/api/user", body, { token: created.key });
        expect(answer.status, JSON.stringify(body)).toBe(403);
        expect(answer.body).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/API key/) });
      }
      const login = await api().post("/api/user/login", { email: "keymade@example.com", password: "a long enough password" });
      expect(login.status).toBe(401);
    });

    it("never changes anyone's password, email or role through a key, and leaves the user as they were", async () => {
      const { body: created } = await api().post(KEYS, { name: "admin bot 2" }, { token: (await admin()).token });
      const other = await signUp(api(), { email: freshEmail("target") });
      for (const body of [{ role: "Editor" }, { role: "Admin" }, { password: "taken over password" }, { email: freshEmail("taken") }]) {
        const answer = await api().patch(`/api/user/${other.id}`, body, { token: created.key });
        expect(answer.status, JSON.stringify(body)).toBe(403);
      }
      const after = await signIn(api(), { email: other.email, password: other.password });
      expect(after.role).toBe("Reader");
      // Other fields of a user stay within the key's reach, as its user's role allows.
      expect((await api().patch(`/api/user/${other.id}`, { name: "Renamed" }, { token: created.key })).status).toBe(200);
    });
  });

  describe("recovery", () => {
    async function userWithKey(label: string): Promise<SignedIn & { key: string; keyId: string }> {
      const user = await signUp(api(), { email: freshEmail(label) });
      const { body } = await api().post(KEYS, { name: "made by a thief" }, { token: user.token });
      expect((await api().get("/api/user/me", { token: body.key })).status).toBe(200);
      return { ...user, key: body.key, keyId: body.id };
    }

    it("a password reset revokes every key of the user, each with its api_key.revoked event", async () => {
      const user = await userWithKey("reset");
      await api().post("/api/user/forgot-password", { email: user.email });
      const token = tokenOf(await test.mail.waitFor(user.email));
      const reset = await api().post("/api/user/reset-password", { token, password: "a brand new passphrase" });
      expect(reset.status).toBe(200);
      expect((await api().get("/api/user/me", { token: user.key })).status).toBe(401);
      const events = await readAllEvents(api(), (await admin()).token, { userId: user.id, type: "api_key.revoked" });
      expect(eventOf(events, "api_key.revoked").detail).toMatchObject({ keyId: user.keyId, reason: "password_reset" });
    });

    it("a password the setup role sets revokes the user's keys; the user's own change keeps them", async () => {
      const user = await userWithKey("admin-set");
      const administrator = await admin();
      const set = await api().patch(`/api/user/${user.id}`, { password: "set by the administrator" }, { token: administrator.token });
      expect(set.status).toBe(200);
      expect((await api().get("/api/user/me", { token: user.key })).status).toBe(401);
      const events = await readAllEvents(api(), administrator.token, { userId: user.id, type: "api_key.revoked" });
      expect(eventOf(events, "api_key.revoked").detail).toMatchObject({ keyId: user.keyId, reason: "password_set_by_admin" });
      expect(eventOf(events, "api_key.revoked").actorId).toBe(administrator.id);

      const own = await userWithKey("own-change");
      const change = { password: "my own new password", currentPassword: own.password };
      expect((await api().patch(`/api/user/${own.id}`, change, { token: own.token })).status).toBe(200);
      expect((await api().get("/api/user/me", { token: own.key })).status).toBe(200);
    });
  });

  describe("single-use tokens", () => {
    it("refuses an mfa token issued before a password reset or a role change", async () => {
      for (const change of ["reset", "role"] as const) {
        const user = await signUp(api(), { email: freshEmail(`mfa-${change}`) });
        const { secret } = await enrolTotp(api(), test.auth, user.token);
        test.advance(30);
        const mfaToken = await passwordStep(api(), user.email, user.password);
        if (change === "role") {
          expect((await api().patch(`/api/user/${user.id}`, { role: "Editor" }, { token: (await admin()).token })).status).toBe(200);
        } else {
          await api().post("/api/user/forgot-password", { email: user.email });
          const token = tokenOf(await test.mail.waitFor(user.email));
          expect((await api().post("/api/user/reset-password", { token, password: "a brand new passphrase" })).status).toBe(200);
        }
        test.advance(30);
        const second = await api().post("/api/user/login/mfa", { mfaToken, code: currentCode(test.auth, secret) });
        expect(second.status, change).toBe(401);
        expect(second.body.code).toBe("INVALID_MFA_TOKEN");
        const options = await api().post("/api/user/login/passkey/options", { mfaToken }, { headers: SAME_SITE });
        expect(options.body.code).toBe("INVALID_MFA_TOKEN");
      }
    });
  });
});

describe.each(BACKENDS)("a required enrolment under AUTH_REAUTH_WINDOW=0 on $name", (backend) => {
  const instance = useInstance(backend.create, `${BLOG_YAML}  mfa: { required: [Editor] }\n`, { reauthWindowSeconds: 0 });
  let admin: SignedIn;

  beforeAll(async () => {
    admin = await setUpAdmin(instance.api);
  });

  it("counts the enrolment token as recent, asks every session for the password, and dies with a role change", async () => {
    const editor = await signUp(instance.api, { email: "editor@example.com" });
    expect((await instance.api.patch(`/api/user/${editor.id}`, { role: "Editor" }, { token: admin.token })).status).toBe(200);
    const login = await instance.api.post("/api/user/login", { email: editor.email, password: editor.password });
    expect(login.body).toMatchObject({ mfaEnrollmentRequired: true });
    const enrolment = String(login.body.mfaToken);
    expect((await instance.api.post("/api/user/mfa/totp", undefined, { token: enrolment })).status).toBe(200);
    // A session that signed in this very moment is not recent under a window of 0.
    const fresh = await signIn(instance.api, admin);
    expect((await instance.api.post(KEYS, { name: "x" }, { token: fresh.token })).body.code).toBe("REAUTHENTICATION_REQUIRED");
    expect((await instance.api.post(KEYS, { name: "x", currentPassword: admin.password }, { token: fresh.token })).status).toBe(201);
    // The enrolment token was issued for the Editor role: once that changes it opens nothing.
    expect((await instance.api.patch(`/api/user/${editor.id}`, { role: "Reader" }, { token: fresh.token })).status).toBe(200);
    const after = await instance.api.post("/api/user/mfa/totp", undefined, { token: enrolment });
    expect(after.status).toBe(401);
  });
});
