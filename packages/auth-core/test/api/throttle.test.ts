import { TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, createSqliteDatabase, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../../src/admin.js";
import { writeTransaction } from "../../src/store/transaction.js";
import { createLoginThrottle, LOGIN_LIMITS } from "../../src/throttle/login-throttle.js";
import { startInstance, type TestInstance } from "../support/instance.js";

describe.each(BACKENDS)("login throttling on $name", (backend) => {
  let database: TestDatabase;
  let instance: TestInstance;
  let second: TestInstance;
  const from = (address: string) => ({ headers: { "x-domain-auth-peer": address } });

  beforeAll(async () => {
    database = await backend.create();
    // A roomy hash queue: these bursts are about the counters in the database, not about overload.
    instance = await startInstance(domainOf(BLOG_YAML), database.url, { maxHashQueue: 1000 });
    second = await startInstance(domainOf(BLOG_YAML), database.url, { maxHashQueue: 1000 });
    for (const email of ["victim@example.com", "reset@example.com"]) {
      expect((await instance.api.post("/api/user/register", { email, password: TEST_PASSWORD })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await instance?.auth.close();
    await second?.auth.close();
    await database?.drop();
  });

  it("locks an email after 5 failures, whatever its spelling, on every instance, even for the right password", async () => {
    const spellings = [
      "victim@example.com",
      "VICTIM@example.com",
      " victim@example.com",
      "Victim@Example.com ",
      "ｖｉｃｔｉｍ@example.com",
    ];
    for (const [index, email] of spellings.entries()) {
      const api = index % 2 === 0 ? instance.api : second.api;
      const response = await api.post("/api/user/login", { email, password: "wrong password" }, from(`10.0.0.${index}`));
      expect(response.status, email).toBe(401);
    }
    const locked = await second.api.post("/api/user/login", { email: "victim@example.com", password: TEST_PASSWORD }, from("10.0.1.1"));
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe("TOO_MANY_ATTEMPTS");
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(LOGIN_LIMITS.emailLockSeconds - 30);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_LIMITS.emailLockSeconds);
  });

  it("resets an email's count after a successful login", async () => {
    for (let round = 0; round < 3; round++) {
      for (let failure = 0; failure < LOGIN_LIMITS.failuresPerEmail - 1; failure++) {
        expect(
          (await instance.api.post("/api/user/login", { email: "reset@example.com", password: "nope nope" }, from("10.1.0.1"))).status,
        ).toBe(401);
      }
      expect(
        (await instance.api.post("/api/user/login", { email: "reset@example.com", password: TEST_PASSWORD }, from("10.1.0.1"))).status,
      ).toBe(200);
    }
  });

  it("locks an address after 100 failures across many emails, and only that address", async () => {
    const attacker = from("203.0.113.7");
    for (let index = 0; index < LOGIN_LIMITS.failuresPerAddress; index++) {
      const response = await instance.api.post(
        "/api/user/login",
        { email: `spray${index}@example.com`, password: "guess guess" },
        attacker,
      );
      expect(response.status).toBe(401);
    }
    const blocked = await second.api.post("/api/user/login", { email: "reset@example.com", password: TEST_PASSWORD }, attacker);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(LOGIN_LIMITS.addressLockSeconds - 30);
    const elsewhere = await second.api.post(
      "/api/user/login",
      { email: "reset@example.com", password: TEST_PASSWORD },
      from("198.51.100.1"),
    );
    expect(elsewhere.status).toBe(200);
  });

  it("gives an address back the attempt of each successful login: only failures bring it to its lock", async () => {
    const office = from("192.0.2.44");
    for (let index = 0; index < LOGIN_LIMITS.failuresPerAddress - 1; index++) {
      const response = await instance.api.post("/api/user/login", { email: `typo${index}@example.com`, password: "guess guess" }, office);
      expect(response.status).toBe(401);
    }
    // Two right passwords on the two instances: each was counted before its comparison, then given back.
    for (const api of [instance.api, second.api]) {
      expect((await api.post("/api/user/login", { email: "reset@example.com", password: TEST_PASSWORD }, office)).status).toBe(200);
    }
    const last = await second.api.post("/api/user/login", { email: "typo-last@example.com", password: "guess guess" }, office);
    expect(last.status).toBe(401);
    const locked = await instance.api.post("/api/user/login", { email: "reset@example.com", password: TEST_PASSWORD }, office);
    expect(locked.status).toBe(429);
  });

  const tally = (statuses: number[]) => {
    const counts: Record<number, number> = {};
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  };

  it("counts a burst of simultaneous guesses for one email before comparing: at most 5 are compared", async () => {
    const email = "burst@example.com";
    expect((await instance.api.post("/api/user/register", { email, password: TEST_PASSWORD })).status).toBe(201);
    const passwords = [...Array.from({ length: 30 }, (_, index) => `wrong guess ${index}`), TEST_PASSWORD];
    const answers = await Promise.all(
      passwords.map((password, index) =>
        (index % 2 === 0 ? instance : second).api.post("/api/user/login", { email, password }, from(`10.2.0.${index}`)),
      ),
    );
    const counts = tally(answers.map((answer) => answer.status));
    expect(counts[429]).toBeGreaterThanOrEqual(passwords.length - LOGIN_LIMITS.failuresPerEmail);
    expect((counts[401] ?? 0) + (counts[200] ?? 0), JSON.stringify(counts)).toBeLessThanOrEqual(LOGIN_LIMITS.failuresPerEmail);
    expect((counts[401] ?? 0) + (counts[200] ?? 0) + (counts[429] ?? 0)).toBe(passwords.length);
    for (const answer of answers.filter((candidate) => candidate.status === 429)) {
      expect(answer.body.code).toBe("TOO_MANY_ATTEMPTS");
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  it("counts a burst across many emails from one address before comparing: at most 100 are compared", async () => {
    const sprayer = from("198.18.0.9");
    const answers = await Promise.all(
      Array.from({ length: 130 }, (_, index) =>
        (index % 2 === 0 ? instance : second).api.post(
          "/api/user/login",
          { email: `burst-spray${index}@example.com`, password: "guess guess" },
          sprayer,
        ),
      ),
    );
    const counts = tally(answers.map((answer) => answer.status));
    expect(counts, JSON.stringify(counts)).toEqual({ 401: LOGIN_LIMITS.failuresPerAddress, 429: 130 - LOGIN_LIMITS.failuresPerAddress });
  });

  it("counts wrong currentPassword answers as failed logins, so the check is no unthrottled password oracle", async () => {
    const email = "oracle@example.com";
    const registered = await instance.api.post("/api/user/register", { email, password: TEST_PASSWORD });
    const login = await instance.api.post("/api/user/login", { email, password: TEST_PASSWORD }, from("10.3.0.1"));
    const path = `/api/user/${registered.body.user.id}`;
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, index) =>
        (index % 2 === 0 ? instance : second).api.patch(
          path,
          { password: "a brand new password", currentPassword: `guess number ${index}` },
          { token: login.body.token, ...from(`10.3.1.${index}`) },
        ),
      ),
    );
    expect(tally(answers.map((answer) => answer.status))).toEqual({
      403: LOGIN_LIMITS.failuresPerEmail,
      429: 15 - LOGIN_LIMITS.failuresPerEmail,
    });
    // Locked now for the right answer too, through PATCH and through login.
    const right = await second.api.patch(
      path,
      { email: "moved@example.com", currentPassword: TEST_PASSWORD },
      { token: login.body.token, ...from("10.3.2.1") },
    );
    expect(right.status).toBe(429);
    expect(right.body.code).toBe("TOO_MANY_ATTEMPTS");
    expect((await instance.api.post("/api/user/login", { email, password: TEST_PASSWORD }, from("10.3.2.2"))).status).toBe(429);
  });

  it("cannot be dodged with a client-sent X-Forwarded-For when no proxy is trusted", async () => {
    const response = await instance.api.post(
      "/api/user/login",
      { email: "reset@example.com", password: TEST_PASSWORD },
      { headers: { "x-domain-auth-peer": "203.0.113.7", "x-forwarded-for": "1.2.3.4" } },
    );
    expect(response.status).toBe(429);
  });
});

describe("login throttling beside a transaction on sqlite", () => {
  it("keeps a failure counted while another request's transaction rolls back", async () => {
    const database = createSqliteDatabase();
    const store = await openDatabase(database.url);
    try {
      await migrate(store, domainOf(BLOG_YAML));
      const throttle = createLoginThrottle(store);
      let recorded: Promise<unknown> | undefined;
      await expect(
        writeTransaction(store, async (trx) => {
          await trx.insertInto("domain_auth_setup").values({ id: 1, completedAt: "now" }).execute();
          recorded = throttle.countAttempt("held@example.com", "10.8.0.1");
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      await recorded;
      for (let index = 1; index < LOGIN_LIMITS.failuresPerEmail; index++)
        expect(await throttle.countAttempt("held@example.com", `10.8.0.${index + 1}`)).toBeNull();
      expect(await throttle.countAttempt("held@example.com", "10.8.1.1")).not.toBeNull();
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
