import { type SignedIn, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { parseSetCookie } from "cookie";
import { beforeAll, describe, expect, it } from "vitest";
import { PENDING_TOTP_REUSE_SECONDS } from "../../src/mfa/second-factors.js";
import { totpCodeAt } from "../../src/mfa/totp.js";
import { useClockedPair } from "../support/clocked.js";
import { clockOf, currentCode, enrolTotp, passwordStep, type TotpHolder, wrongCode } from "../support/second-factors.js";

/**
 * TOTP second factors and recovery codes (docs/mfa.md) on both databases: enrolment, the second
 * step of a sign-in with either transport, codes accepted once, the login throttle, the single-use
 * mfa token under a race and its expiry, turning TOTP off, new recovery codes, and what is stored.
 */

const SAME_SITE = { origin: "http://localhost", host: "localhost" };

describe.each(BACKENDS)("TOTP second factors on $name", (backend) => {
  const pair = useClockedPair(backend.create);
  const api = () => pair.first.api;
  const auth = () => pair.first.auth;
  let counter = 0;
  const freshEmail = (label: string) => `${label}-${++counter}@example.com`;

  beforeAll(async () => {
    await setUpAdmin(pair.first.api);
  });

  /** A new user with TOTP on, the clock moved on to the next step (the confirming code's step is spent). */
  async function userWithTotp(label: string): Promise<SignedIn & TotpHolder> {
    const user = await signUp(api(), { email: freshEmail(label) });
    const totp = await enrolTotp(api(), auth(), user.token);
    pair.advance(30);
    return { ...user, ...totp };
  }

  /** A code of the next step: the clock moves 30 s first, so no code is presented twice by accident. */
  function nextCode(secret: string): string {
    pair.advance(30);
    return currentCode(auth(), secret);
  }

  /** Every row of a second-factor table, read straight from the database. */
  async function rowsOf(table: string): Promise<Record<string, unknown>[]> {
    const database = auth().tools.mfa?.store.database;
    if (!database) throw new Error("no auth");
    return database.db.selectFrom(table).selectAll().execute();
  }

  describe("enrolment", () => {
    it("answers a pending secret, its otpauth URI and a QR code drawn as SVG, never cached", async () => {
      const user = await signUp(api(), { email: freshEmail("start") });
      const started = await api().post("/api/user/mfa/totp", undefined, { token: user.token });
      expect(started.status).toBe(200);
      expect(started.headers.get("cache-control")).toBe("no-store");
      expect(Object.keys(started.body).sort()).toEqual(["otpauthUrl", "qrSvg", "secret"]);
      expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
      const url = new URL(started.body.otpauthUrl);
      expect(url.searchParams.get("secret")).toBe(started.body.secret);
      expect(url.searchParams.get("issuer")).toBe("blog");
      expect(decodeURIComponent(url.pathname)).toBe(`/blog:${user.email}`);
      expect(started.body.qrSvg).toMatch(/^<svg [^>]*viewBox="[^"]+"[^>]*>/);
      expect(started.body.qrSvg).not.toMatch(/<script|href=|xlink/i);
      // Not on yet: login still signs in directly.
      expect((await signIn(api(), { email: user.email })).token).toEqual(expect.any(String));
    });

    it("turns TOTP on with a current code of the pending secret and answers ten distinct recovery codes", async () => {
      const user = await signUp(api(), { email: freshEmail("confirm") });
      const started = await api().post("/api/user/mfa/totp", undefined, { token: user.token });
      const { secret } = started.body;
      const wrong = await api().post("/api/user/mfa/totp/confirm", { code: wrongCode(auth(), secret) }, { token: user.token });
      expect(wrong).toMatchObject({ status: 400, body: { code: "INVALID_BODY", issues: [{ path: ["code"] }] } });
      const malformed = await api().post("/api/user/mfa/totp/confirm", { code: "12 34" }, { token: user.token });
      expect(malformed).toMatchObject({ status: 400, body: { code: "INVALID_BODY", issues: [{ path: ["code"] }] } });
      // The code as apps show it, with a space in the middle.
      const code = currentCode(auth(), secret);
      const confirmed = await api().post(
        "/api/user/mfa/totp/confirm",
        { code: `${code.slice(0, 3)} ${code.slice(3)}` },
        { token: user.token },
      );
      expect(confirmed.status).toBe(200);
      expect(confirmed.headers.get("cache-control")).toBe("no-store");
      expect(Object.keys(confirmed.body)).toEqual(["recoveryCodes"]);
      const codes: string[] = confirmed.body.recoveryCodes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const recovery of codes) expect(recovery).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      await passwordStep(api(), user.email, TEST_PASSWORD);
    });

    it("answers the same pending secret to every start within 5 minutes, simultaneous ones included", async () => {
      const user = await signUp(api(), { email: freshEmail("twice") });
      const start = async () => (await api().post("/api/user/mfa/totp", undefined, { token: user.token })).body.secret as string;
      // A page's effect run twice (React in development), a double click, two tabs: one secret, the one kept.
      const together = await Promise.all([start(), start(), start()]);
      const [first] = together;
      expect(together).toEqual([first, first, first]);
      pair.advance(PENDING_TOTP_REUSE_SECONDS - 60);
      expect(await start()).toBe(first);
      const confirmed = await api().post(
        "/api/user/mfa/totp/confirm",
        { code: currentCode(auth(), first as string) },
        { token: user.token },
      );
      expect(confirmed.status).toBe(200);
    });

    it("replaces a pending secret started over 5 minutes ago, and refuses to start or confirm while TOTP is on", async () => {
      const user = await signUp(api(), { email: freshEmail("restart") });
      const first = (await api().post("/api/user/mfa/totp", undefined, { token: user.token })).body.secret;
      pair.advance(PENDING_TOTP_REUSE_SECONDS + 1);
      const second = (await api().post("/api/user/mfa/totp", undefined, { token: user.token })).body.secret;
      expect(second).not.toBe(first);
      const stale = await api().post("/api/user/mfa/totp/confirm", { code: currentCode(auth(), first) }, { token: user.token });
      expect(stale.status).toBe(400);
      expect((await api().post("/api/user/mfa/totp/confirm", { code: currentCode(auth(), second) }, { token: user.token })).status).toBe(
        200,
      );
      expect(await api().post("/api/user/mfa/totp", undefined, { token: user.token })).toMatchObject({
        status: 409,
        body: { code: "CONFLICT" },
      });
      const again = await api().post("/api/user/mfa/totp/confirm", { code: nextCode(second) }, { token: user.token });
      expect(again).toMatchObject({ status: 409, body: { code: "CONFLICT" } });
    });

    it("needs no pending secret to be refused: confirming without one is 409", async () => {
      const user = await signUp(api(), { email: freshEmail("nothing-pending") });
      const answer = await api().post("/api/user/mfa/totp/confirm", { code: "123456" }, { token: user.token });
      expect(answer).toMatchObject({ status: 409, body: { code: "CONFLICT" } });
    });

    it("revokes the user's other sessions when TOTP turns on, keeping the one that turned it on", async () => {
      const user = await signUp(api(), { email: freshEmail("revoke-on") });
      const laptop = await signIn(api(), { email: user.email });
      await enrolTotp(api(), auth(), user.token);
      expect((await pair.second.api.get("/api/user/me", { token: laptop.token })).status).toBe(401);
      expect((await pair.second.api.post("/api/user/refresh", { refreshToken: laptop.refreshToken })).status).toBe(401);
      expect((await pair.second.api.get("/api/user/me", { token: user.token })).status).toBe(200);
    });
  });

  describe("signing in with a second factor", () => {
    it("answers a right password with mfaRequired and no session, then signs in with a code", async () => {
      const user = await userWithTotp("code");
      const sessionsBefore = await auth().tools.sessions?.store.count();
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      expect(await auth().tools.sessions?.store.count()).toBe(sessionsBefore);
      const answer = await api().post("/api/user/login/mfa", { mfaToken, code: nextCode(user.secret) });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.body).toMatchObject({ tokenType: "Bearer", expiresIn: 3600, user: { id: user.id, email: user.email } });
      expect((await pair.second.api.get("/api/user/me", { token: answer.body.token })).status).toBe(200);
      expect((await pair.second.api.post("/api/user/refresh", { refreshToken: answer.body.refreshToken })).status).toBe(200);
    });

    it("still answers a wrong password 401 INVALID_CREDENTIALS, saying nothing of the second factor", async () => {
      const user = await userWithTotp("wrong-password");
      const answer = await api().post("/api/user/login", { email: user.email, password: "not the password" });
      expect(answer).toMatchObject({ status: 401, body: { code: "INVALID_CREDENTIALS" } });
      expect(answer.text).not.toMatch(/mfa/i);
    });

    it("accepts a TOTP code once: the same code again, or an older one, is refused with a fresh mfaToken", async () => {
      const user = await userWithTotp("replay");
      const code = nextCode(user.secret);
      const older = totpCodeAt(user.secret, clockOf(auth()) - 30_000);
      const first = await api().post("/api/user/login/mfa", { mfaToken: await passwordStep(api(), user.email, TEST_PASSWORD), code });
      expect(first.status).toBe(200);
      for (const replayed of [code, older]) {
        const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
        const again = await pair.second.api.post("/api/user/login/mfa", { mfaToken, code: replayed });
        expect(again).toMatchObject({ status: 401, body: { code: "INVALID_MFA_CODE" } });
      }
      // The refused attempts spent nothing: the token still takes the next step's code.
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      expect((await api().post("/api/user/login/mfa", { mfaToken, code: "000000" })).status).toBe(401);
      expect((await api().post("/api/user/login/mfa", { mfaToken, code: nextCode(user.secret) })).status).toBe(200);
    });

    it("accepts a recovery code once, however it is typed", async () => {
      const user = await userWithTotp("recovery");
      const [recovery = "", other = ""] = user.recoveryCodes;
      const typed = ` ${recovery.toUpperCase().replaceAll("-", " ")} `;
      const first = await api().post("/api/user/login/mfa", {
        mfaToken: await passwordStep(api(), user.email, TEST_PASSWORD),
        recoveryCode: typed,
      });
      expect(first.status).toBe(200);
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      const again = await api().post("/api/user/login/mfa", { mfaToken, recoveryCode: recovery });
      expect(again).toMatchObject({ status: 401, body: { code: "INVALID_MFA_CODE" } });
      expect((await api().post("/api/user/login/mfa", { mfaToken, recoveryCode: other })).status).toBe(200);
    });

    it("spends the mfaToken with the accepted code: it never works again", async () => {
      const user = await userWithTotp("single-use");
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      expect((await api().post("/api/user/login/mfa", { mfaToken, code: nextCode(user.secret) })).status).toBe(200);
      const again = await pair.second.api.post("/api/user/login/mfa", { mfaToken, code: nextCode(user.secret) });
      expect(again).toMatchObject({ status: 401, body: { code: "INVALID_MFA_TOKEN" } });
      const withRecovery = await api().post("/api/user/login/mfa", { mfaToken, recoveryCode: user.recoveryCodes[0] });
      expect(withRecovery.body.code).toBe("INVALID_MFA_TOKEN");
    });

    it("lets exactly one of simultaneous second steps with one mfaToken through", async () => {
      const user = await userWithTotp("race");
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      const codes = user.recoveryCodes.slice(0, 5);
      // On PostgreSQL across two instances. Two instances on one SQLite file in one process share a
      // thread: one's synchronous wait for the file's write lock would hold up the other's open
      // transaction, which separate processes never do.
      const instanceOf = (index: number) => (backend.name === "postgres" && index % 2 === 1 ? pair.second.api : api());
      const answers = await Promise.all(
        codes.map((recoveryCode, index) => instanceOf(index).post("/api/user/login/mfa", { mfaToken, recoveryCode })),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.body?.code === "INVALID_MFA_TOKEN")).toHaveLength(4);
      // The losers' recovery codes were not spent: the race rolled them back.
      const loser = codes[answers.findIndex((answer) => answer.status !== 200)];
      const later = await api().post("/api/user/login/mfa", {
        mfaToken: await passwordStep(api(), user.email, TEST_PASSWORD),
        recoveryCode: loser,
      });
      expect(later.status).toBe(200);
    });

    it("lets the mfaToken expire after 5 minutes", async () => {
      const user = await userWithTotp("expiry");
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      pair.advance(299);
      const inTime = await passwordStep(api(), user.email, TEST_PASSWORD);
      pair.advance(2);
      const late = await api().post("/api/user/login/mfa", { mfaToken, code: currentCode(auth(), user.secret) });
      expect(late).toMatchObject({ status: 401, body: { code: "INVALID_MFA_TOKEN" } });
      expect((await api().post("/api/user/login/mfa", { mfaToken: inTime, code: currentCode(auth(), user.secret) })).status).toBe(200);
    });

    it("refuses an unknown mfaToken, and a body with both or neither of code and recoveryCode", async () => {
      const user = await userWithTotp("bodies");
      const unknown = await api().post("/api/user/login/mfa", { mfaToken: "mfa_nothing", code: "123456" });
      expect(unknown).toMatchObject({ status: 401, body: { code: "INVALID_MFA_TOKEN" } });
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      for (const body of [{ mfaToken }, { mfaToken, code: "123456", recoveryCode: user.recoveryCodes[0] }, { code: "123456" }]) {
        expect((await api().post("/api/user/login/mfa", body)).body.code).toBe("INVALID_BODY");
      }
    });

    it("counts wrong codes as failed logins: 5, then 429 for codes and for the right password alike", async () => {
      const user = await userWithTotp("throttle");
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      for (let attempt = 0; attempt < 4; attempt++) {
        const wrong = await api().post("/api/user/login/mfa", { mfaToken, code: wrongCode(auth(), user.secret) });
        expect(wrong).toMatchObject({ status: 401, body: { code: "INVALID_MFA_CODE" } });
      }
      // Entering the password again does not wipe out the wrong codes.
      const again = await passwordStep(api(), user.email, TEST_PASSWORD);
      expect((await api().post("/api/user/login/mfa", { mfaToken: again, recoveryCode: "aaaa-aaaa-aaaa-aaaa" })).status).toBe(401);
      const locked = await api().post("/api/user/login/mfa", { mfaToken: again, code: currentCode(auth(), user.secret) });
      expect(locked).toMatchObject({ status: 429, body: { code: "TOO_MANY_ATTEMPTS" } });
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
      const password = await pair.second.api.post("/api/user/login", { email: user.email, password: TEST_PASSWORD });
      expect(password.status).toBe(429);
    });

    it("forgives the count once a second step succeeds", async () => {
      const user = await userWithTotp("forgive");
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      for (let attempt = 0; attempt < 4; attempt++) {
        await api().post("/api/user/login/mfa", { mfaToken, code: wrongCode(auth(), user.secret) });
      }
      expect((await api().post("/api/user/login/mfa", { mfaToken, code: nextCode(user.secret) })).status).toBe(200);
      for (let attempt = 0; attempt < 4; attempt++) {
        const token = await passwordStep(api(), user.email, TEST_PASSWORD);
        expect((await api().post("/api/user/login/mfa", { mfaToken: token, code: wrongCode(auth(), user.secret) })).status).toBe(401);
      }
    });
  });

  describe("the cookie transport", () => {
    it("answers the password step in the body, then sets the session cookies at login/mfa", async () => {
      const user = await userWithTotp("cookie");
      const step = await api().post(
        "/api/user/login",
        { email: user.email, password: TEST_PASSWORD, transport: "cookie" },
        { headers: SAME_SITE },
      );
      expect(step.body).toMatchObject({ mfaRequired: true });
      expect(step.headers.getSetCookie()).toEqual([]);
      const body = { mfaToken: step.body.mfaToken, code: nextCode(user.secret), transport: "cookie" };
      const crossSite = await api().post("/api/user/login/mfa", body, { headers: { origin: "https://evil.example", host: "localhost" } });
      expect(crossSite).toMatchObject({ status: 403, body: { code: "FORBIDDEN_ORIGIN" } });
      const answer = await api().post("/api/user/login/mfa", body, { headers: SAME_SITE });
      expect(answer.status).toBe(200);
      expect(answer.body).not.toHaveProperty("token");
      expect(answer.body).not.toHaveProperty("refreshToken");
      expect(answer.body.user.email).toBe(user.email);
      const cookies = answer.headers.getSetCookie().map((line) => parseSetCookie(line));
      expect(cookies.map((cookie) => cookie.name).sort()).toEqual(["domain-auth.refresh-token", "domain-auth.token"]);
      const access = cookies.find((cookie) => cookie.name === "domain-auth.token");
      const me = await api().get("/api/user/me", { headers: { cookie: `domain-auth.token=${access?.value}` } });
      expect(me.body.user.email).toBe(user.email);
    });
  });

  describe("turning TOTP off", () => {
    it("needs the current password and a current code, counted as a login attempt", async () => {
      const user = await userWithTotp("off-guards");
      const call = (body: Record<string, unknown>) => api().call("DELETE", "/api/user/mfa/totp", body, { token: user.token });
      const wrongPassword = await call({ currentPassword: "not it", code: currentCode(auth(), user.secret) });
      expect(wrongPassword).toMatchObject({ status: 403, body: { code: "FORBIDDEN", issues: [{ path: ["currentPassword"] }] } });
      const wrong = await call({ currentPassword: TEST_PASSWORD, code: wrongCode(auth(), user.secret) });
      expect(wrong).toMatchObject({ status: 403, body: { code: "FORBIDDEN", issues: [{ path: ["code"] }] } });
      expect((await call({ currentPassword: TEST_PASSWORD })).body.code).toBe("INVALID_BODY");
      expect((await api().call("DELETE", "/api/user/mfa/totp", { currentPassword: TEST_PASSWORD, code: "123456" })).status).toBe(401);
      await passwordStep(api(), user.email, TEST_PASSWORD);
    });

    it("removes the secret and the recovery codes, revokes the other sessions, and login signs in directly again", async () => {
      const user = await userWithTotp("off");
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      const laptop = await api().post("/api/user/login/mfa", { mfaToken, code: nextCode(user.secret) });
      const off = await api().call(
        "DELETE",
        "/api/user/mfa/totp",
        { currentPassword: TEST_PASSWORD, code: nextCode(user.secret) },
        { token: user.token },
      );
      expect(off.status).toBe(204);
      expect((await pair.second.api.get("/api/user/me", { token: laptop.body.token })).status).toBe(401);
      expect((await pair.second.api.get("/api/user/me", { token: user.token })).status).toBe(200);
      expect((await signIn(api(), { email: user.email })).token).toEqual(expect.any(String));
      expect((await rowsOf("domain_auth_totp")).filter((row) => row.userId === user.id)).toEqual([]);
      expect((await rowsOf("domain_auth_recovery_codes")).filter((row) => row.userId === user.id)).toEqual([]);
      const again = await api().call(
        "DELETE",
        "/api/user/mfa/totp",
        { currentPassword: TEST_PASSWORD, code: "123456" },
        { token: user.token },
      );
      expect(again).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
    });
  });

  describe("new recovery codes", () => {
    it("need the current password; the old set dies and the new one works", async () => {
      const user = await userWithTotp("regenerate");
      const wrong = await api().post("/api/user/mfa/recovery-codes", { currentPassword: "not it" }, { token: user.token });
      expect(wrong).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      const answer = await api().post("/api/user/mfa/recovery-codes", { currentPassword: TEST_PASSWORD }, { token: user.token });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      const fresh: string[] = answer.body.recoveryCodes;
      expect(fresh).toHaveLength(10);
      expect(fresh.filter((code) => user.recoveryCodes.includes(code))).toEqual([]);
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      expect((await api().post("/api/user/login/mfa", { mfaToken, recoveryCode: user.recoveryCodes[0] })).status).toBe(401);
      expect((await api().post("/api/user/login/mfa", { mfaToken, recoveryCode: fresh[0] })).status).toBe(200);
    });

    it("are 409 while TOTP is off", async () => {
      const user = await signUp(api(), { email: freshEmail("no-totp") });
      const answer = await api().post("/api/user/mfa/recovery-codes", { currentPassword: TEST_PASSWORD }, { token: user.token });
      expect(answer).toMatchObject({ status: 409, body: { code: "CONFLICT" } });
    });
  });

  describe("odd bodies", () => {
    const bodies: unknown[] = [
      {},
      { code: 123456 },
      { code: null, currentPassword: null },
      { code: ["123456"], recoveryCode: {} },
      { code: "１２３４５６" },
      { code: "12345\u0000", currentPassword: "\u0000", recoveryCode: "\u0000\u0000\u0000\u0000" },
      { code: "9".repeat(100_000) },
      { mfaToken: 5, code: "123456" },
      { mfaToken: `mfa_${"x".repeat(2000)}`, recoveryCode: "aaaa-aaaa-aaaa-aaaa" },
      { mfaToken: "mfa_\u0000", code: "123456", transport: "smoke" },
      { currentPassword: { toString: "x" }, code: "123456" },
      [],
      "null",
    ];
    const operations = [
      ["POST", "/api/user/mfa/totp/confirm"],
      ["DELETE", "/api/user/mfa/totp"],
      ["POST", "/api/user/mfa/recovery-codes"],
      ["POST", "/api/user/login/mfa"],
    ] as const;

    it("are answered with the API's error body (docs/api.md#errors-in-the-order-they-are-checked), never a 500, on every second-factor endpoint", async () => {
      const user = await userWithTotp("odd");
      for (const [method, path] of operations) {
        for (const body of bodies) {
          const answer = await api().call(method, path, body, { token: user.token });
          expect(answer.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`).toBeLessThan(500);
          if (answer.status >= 400) expect(answer.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        }
        const raw = await api().call(method, path, undefined, {
          token: user.token,
          raw: "{not json",
          headers: { "content-type": "application/json" },
        });
        expect(raw.body.code).toBe("INVALID_BODY");
      }
    });
  });

  describe("secrets at rest and in answers", () => {
    it("stores the TOTP secret sealed, recovery codes and mfa tokens as hashes, and answers none of them again", async () => {
      const user = await signUp(api(), { email: freshEmail("at-rest") });
      const answers: string[] = [];
      const { secret, recoveryCodes, confirmed } = await enrolTotp(api(), auth(), user.token);
      const mfaToken = await passwordStep(api(), user.email, TEST_PASSWORD);
      const signedIn = await api().post("/api/user/login/mfa", { mfaToken, code: nextCode(secret) });
      answers.push(signedIn.text);
      const token = signedIn.body.token;
      for (const path of ["/api/user/me", `/api/user/${user.id}`, "/api/user/sessions", "/api/user", "/api/openapi.json"]) {
        answers.push((await api().get(path, { token })).text);
      }
      answers.push((await api().post("/api/user/refresh", { refreshToken: signedIn.body.refreshToken })).text);
      answers.push((await api().post("/api/user/mfa/totp", undefined, { token })).text);
      const normalized = recoveryCodes.map((code) => code.replaceAll("-", ""));
      for (const text of answers) {
        expect(text).not.toContain(secret);
        for (const code of [...recoveryCodes, ...normalized]) expect(text).not.toContain(code);
      }
      expect(confirmed.text).not.toContain(secret);

      const [totp] = (await rowsOf("domain_auth_totp")).filter((row) => row.userId === user.id);
      expect(String(totp?.secret)).toMatch(/^v1\./);
      expect(JSON.stringify(totp)).not.toContain(secret);
      const stored = (await rowsOf("domain_auth_recovery_codes")).filter((row) => row.userId === user.id);
      expect(stored).toHaveLength(10);
      const text = JSON.stringify(stored);
      for (const code of [...recoveryCodes, ...normalized]) expect(text).not.toContain(code);
      expect(JSON.stringify(await rowsOf("domain_auth_mfa_tokens"))).not.toContain(mfaToken);
    });
  });
});
