import { TEST_PASSWORD as PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/admin.js";
import { throttleKey } from "../../src/throttle/limiter.js";
import { startInstance, type TestInstance } from "../support/instance.js";

const LIMIT = 3;
/** The limit counts registrations per address per hour. */
const HOUR_SECONDS = 3600;

describe.each(BACKENDS)("register throttling on $name", (backend) => {
  let database: TestDatabase;
  let instance: TestInstance;
  let second: TestInstance;
  const from = (address: string) => ({ headers: { "x-domain-auth-peer": address } });
  let next = 0;
  const register = (api: TestInstance["api"], address: string, email = `user${next++}@example.com`) =>
    api.post("/api/user/register", { email, password: PASSWORD }, from(address));

  beforeAll(async () => {
    database = await backend.create();
    instance = await startInstance(domainOf(BLOG_YAML), database.url, { registerLimit: LIMIT });
    second = await startInstance(domainOf(BLOG_YAML), database.url, { registerLimit: LIMIT });
  });
  afterAll(async () => {
    await instance?.auth.close();
    await second?.auth.close();
    await database?.drop();
  });

  it("refuses the registration past the limit with 429 and Retry-After, counting on every instance", async () => {
    for (let index = 0; index < LIMIT; index++) {
      const response = await register(index % 2 === 0 ? instance.api : second.api, "203.0.113.1");
      expect(response.status, response.text).toBe(201);
    }
    for (const api of [instance.api, second.api]) {
      const refused = await register(api, "203.0.113.1");
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("TOO_MANY_ATTEMPTS");
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(HOUR_SECONDS - 60);
      expect(retryAfter).toBeLessThanOrEqual(HOUR_SECONDS);
    }
  });

  it("leaves other addresses alone", async () => {
    expect((await register(second.api, "203.0.113.2")).status).toBe(201);
  });

  it("answers 429 before looking at the email: a taken email from a throttled address is not 409", async () => {
    const taken = "taken@example.com";
    expect((await register(instance.api, "203.0.113.3", taken)).status).toBe(201);
    expect((await register(instance.api, "203.0.113.4", taken)).status).toBe(409);
    for (let index = 1; index < LIMIT; index++) expect((await register(instance.api, "203.0.113.3")).status).toBe(201);
    expect((await register(instance.api, "203.0.113.3", taken)).status).toBe(429);
  });

  it("checks the body first: an invalid body is 400 and does not count", async () => {
    for (let index = 0; index < LIMIT + 2; index++) {
      const invalid = await instance.api.post("/api/user/register", { email: "not an email", password: PASSWORD }, from("203.0.113.5"));
      expect(invalid.status).toBe(400);
    }
    for (let index = 0; index < LIMIT; index++) expect((await register(instance.api, "203.0.113.5")).status).toBe(201);
    expect((await register(instance.api, "203.0.113.5")).status).toBe(429);
  });

  it("holds under a burst: of 12 simultaneous registrations from one address across both instances, exactly the limit get 201", async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => register(index % 2 === 0 ? instance.api : second.api, "203.0.113.6")),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(201), ...Array(12 - LIMIT).fill(429)]);
  });

  it("refuses an address past the limit from memory: the count in the database stops growing", async () => {
    const address = "203.0.113.8";
    const counted = async (): Promise<number> => {
      const store = await openDatabase(database.url);
      try {
        const row = await store.db
          .selectFrom("domain_auth_throttle")
          .select("points")
          .where("key", "=", `register-address:${throttleKey(address)}`)
          .executeTakeFirst();
        return Number(row?.points);
      } finally {
        await store.close();
      }
    };
    for (let index = 0; index < LIMIT; index++) expect((await register(instance.api, address)).status).toBe(201);
    expect((await register(instance.api, address)).status).toBe(429);
    expect(await counted()).toBe(LIMIT + 1);
    for (let index = 0; index < 5; index++) expect((await register(instance.api, address)).status).toBe(429);
    expect(await counted()).toBe(LIMIT + 1);
    // The other instance learns it from the database, once.
    for (let index = 0; index < 5; index++) expect((await register(second.api, address)).status).toBe(429);
    expect(await counted()).toBe(LIMIT + 2);
  });

  it("cannot be dodged with a client-sent X-Forwarded-For when no proxy is trusted", async () => {
    const response = await instance.api.post(
      "/api/user/register",
      { email: "dodger@example.com", password: PASSWORD },
      { headers: { "x-domain-auth-peer": "203.0.113.1", "x-forwarded-for": "1.2.3.4" } },
    );
    expect(response.status).toBe(429);
  });
});
