import { TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, createSqliteDatabase, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { afterEach, describe, expect, it } from "vitest";
import { startInstance, type TestInstance } from "../support/instance.js";

const domain = domainOf(BLOG_YAML);
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function instances(database: TestDatabase, count: number): Promise<TestInstance[]> {
  const started: TestInstance[] = [];
  // Room in the hash queue for every racer: these races are about the database; a full queue's
  // 503 answers are covered by hash-queue.test.ts.
  for (let index = 0; index < count; index++) started.push(await startInstance(domain, database.url, { maxHashQueue: 64 }));
  cleanup.push(async () => {
    for (const instance of started) await instance.auth.close();
    await database.drop();
  });
  return started;
}

function statuses(responses: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

// On PostgreSQL two instances share the database; on SQLite one instance per process is the
// deployment (separate processes on one file are covered by the hardening suite).
describe.each(BACKENDS)("races on $name", (backend) => {
  const count = backend.name === "postgres" ? 2 : 1;
  it("lets exactly one of 50 simultaneous setups through, across instances", async () => {
    const [first, second = first] = await instances(await backend.create(), count);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        (index % 2 === 0 ? first : second)?.api.post("/api/user/setup", { email: `admin${index}@example.com`, password: TEST_PASSWORD }),
      ),
    );
    expect(statuses(responses as { status: number }[])).toEqual({ 201: 1, 409: 49 });
    for (const response of responses) if (response?.status === 409) expect(response.body.code).toBe("SETUP_COMPLETE");
    const list = await first?.api.get("/api/user/setup");
    expect(list?.body).toEqual({ setupRequired: false });
  });

  it("lets exactly one of 20 simultaneous registrations of one email through", async () => {
    const [first, second = first] = await instances(await backend.create(), count);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? first : second)?.api.post("/api/user/register", {
          email: index % 3 === 0 ? "Same@Example.com" : "same@example.com",
          password: TEST_PASSWORD,
        }),
      ),
    );
    expect(statuses(responses as { status: number }[])).toEqual({ 201: 1, 409: 19 });
    for (const response of responses) if (response?.status === 409) expect(response.body.code).toBe("EMAIL_TAKEN");
  });
});

describe("setup flag", () => {
  it("closes setup for good once a user registered", async () => {
    const [instance] = await instances(createSqliteDatabase(), 1);
    const api = (instance as TestInstance).api;
    expect((await api.post("/api/user/register", { email: "first@example.com", password: TEST_PASSWORD })).status).toBe(201);
    expect((await api.get("/api/user/setup")).body).toEqual({ setupRequired: false });
    expect((await api.post("/api/user/setup", { email: "late@example.com", password: TEST_PASSWORD })).status).toBe(409);
  });
});
