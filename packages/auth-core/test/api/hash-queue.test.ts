import { TEST_PASSWORD as PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiResult } from "../support/client.js";
import { startInstance, type TestInstance } from "../support/instance.js";

// One hashing thread and room for one more task; a cost high enough that a hash outlasts the
// requests a test sends meanwhile by far.
const QUEUE = { hashThreads: 1, maxHashQueue: 1, bcryptCost: 12, registerLimit: 5 } as const;

function expectUnavailable(answer: ApiResult): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.body).toEqual({ code: "UNAVAILABLE", message: expect.any(String) });
  expect(answer.headers.get("retry-after")).toBe("1");
}

// Hashes at cost 12 one after another: seconds each on a loaded machine, so the time limit is generous.
describe.each(BACKENDS)("bounded hash queue on $name", { timeout: 180_000 }, (backend) => {
  let database: TestDatabase;
  let instance: TestInstance;
  let admin: { token: string; id: string };

  /** Fills the hash queue (one running, one waiting) with work of its own; resolves when it drained. */
  function fillQueue(): Promise<unknown> {
    const hasher = instance.auth.tools.hasher;
    if (!hasher) throw new Error("no hasher");
    return Promise.all([hasher.hash("keeps the thread busy"), hasher.hash("waits for the thread")]);
  }

  beforeAll(async () => {
    database = await backend.create();
    instance = await startInstance(domainOf(BLOG_YAML), database.url, QUEUE);
  });
  afterAll(async () => {
    await instance?.auth.close();
    await database?.drop();
  });

  it("answers setup 503 with Retry-After while the queue is full, and 201 once it drained", async () => {
    const drained = fillQueue();
    expectUnavailable(await instance.api.post("/api/user/setup", { email: "admin@example.com", password: PASSWORD }));
    await drained;
    const created = await instance.api.post("/api/user/setup", { email: "admin@example.com", password: PASSWORD });
    expect(created.status, created.text).toBe(201);
    admin = { token: created.body.token, id: created.body.user.id };
  });

  it("answers login, register, password changes and user creation 503 at once; reads keep answering", async () => {
    const drained = fillQueue();
    const adminAuth = { token: admin.token };
    const attempts = await Promise.all([
      instance.api.post("/api/user/login", { email: "admin@example.com", password: PASSWORD }),
      instance.api.post("/api/user/login", { email: "nobody@example.com", password: PASSWORD }),
      instance.api.post("/api/user/register", { email: "new@example.com", password: PASSWORD }),
      instance.api.patch(`/api/user/${admin.id}`, { password: "a new password", currentPassword: PASSWORD }, adminAuth),
      instance.api.post("/api/user", { email: "made@example.com", password: PASSWORD }, adminAuth),
    ]);
    for (const answer of attempts) expectUnavailable(answer);
    const reads = await Promise.all([
      instance.api.get("/api/user/me", adminAuth),
      instance.api.get(`/api/user/${admin.id}`, adminAuth),
      instance.api.get("/api/user", adminAuth),
      instance.api.get("/api/post"),
      instance.api.get("/api/user/setup"),
    ]);
    for (const answer of reads) expect(answer.status, answer.text).toBe(200);
    await drained;
  });

  it("sheds register and login before reading the body: even a body they would refuse is 503", async () => {
    const drained = fillQueue();
    for (const path of ["/api/user/register", "/api/user/login"]) {
      expectUnavailable(await instance.api.post(path, { email: "not an email" }));
      expectUnavailable(await instance.api.post(path, undefined, { raw: "{ not json", headers: { "content-type": "application/json" } }));
      expectUnavailable(await instance.api.post(path, undefined, { raw: "email=a", headers: { "content-type": "text/plain" } }));
    }
    await drained;
    expect((await instance.api.post("/api/user/register", { email: "not an email" })).status).toBe(400);
  });

  it("does not count a refused login as a failure: the email does not lock", async () => {
    const drained = fillQueue();
    for (let attempt = 0; attempt < 6; attempt++) {
      expectUnavailable(await instance.api.post("/api/user/login", { email: "admin@example.com", password: "a wrong password" }));
    }
    await drained;
    const login = await instance.api.post("/api/user/login", { email: "admin@example.com", password: PASSWORD });
    expect(login.status, login.text).toBe(200);
  });

  it("does not count a registration shed by the full queue against the address's limit", async () => {
    const from = { headers: { "x-domain-auth-peer": "198.51.100.9" } };
    const register = (index: number) =>
      instance.api.post("/api/user/register", { email: `shed${index}@example.com`, password: PASSWORD }, from);
    const drained = fillQueue();
    for (let index = 0; index < 6; index++) expectUnavailable(await register(index));
    await drained;
    for (let index = 0; index < QUEUE.registerLimit; index++) expect((await register(index)).status).toBe(201);
    expect((await register(99)).status).toBe(429);
  });

  it("sheds a flood of 20 registrations: the queue's worth are created, the rest 503 at once, none 500, `me` answers meanwhile", async () => {
    const settled: string[] = [];
    const flood = Array.from({ length: 20 }, (_, index) =>
      instance.api.post("/api/user/register", { email: `flood${index}@example.com`, password: PASSWORD }).then((answer) => {
        settled.push(String(answer.status));
        return answer;
      }),
    );
    const me = await instance.api.get("/api/user/me", { token: admin.token });
    settled.push("me");
    expect(me.status).toBe(200);
    const answers = await Promise.all(flood);

    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(created.length + refused.length, answers.map((answer) => answer.status).join()).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.length).toBeLessThanOrEqual(4);
    for (const answer of refused) expectUnavailable(answer);
    // Neither the refusals nor `me` waited for a hash: all of them came before the first account.
    const firstCreated = settled.indexOf("201");
    expect(settled.slice(0, firstCreated).sort()).toEqual([...Array(refused.length).fill("503"), "me"]);
  });
});
