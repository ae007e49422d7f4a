import { TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import Driver from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/http/errors.js";
import { errorResponse, UNAVAILABLE_RETRY_SECONDS } from "../../src/http/responses.js";
import { sqlitePathOf } from "../../src/store/database.js";
import { EVENT_TABLES } from "../../src/store/event-table.js";
import { startInstance, type TestInstance } from "../support/instance.js";

/** Holds a write lock on the events table from a connection of its own until `release()`. */
interface HeldLock {
  release(): Promise<void>;
}

async function lockEvents(url: string): Promise<HeldLock> {
  if (url.startsWith("file:")) {
    const client = new Driver(sqlitePathOf(url));
    client.exec("begin exclusive");
    return {
      release: async () => {
        client.exec("rollback");
        client.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`begin; lock table ${EVENT_TABLES.events} in access exclusive mode`);
  return {
    release: async () => {
      await client.query("rollback");
      await client.end();
    },
  };
}

// A write waits the store's lock timeout (5 s) before it gives up.
describe.each(BACKENDS)("every 503 carries Retry-After, on $name", { timeout: 60_000 }, (backend) => {
  let database: TestDatabase;
  let instance: TestInstance;

  beforeAll(async () => {
    database = await backend.create();
    instance = await startInstance(domainOf(BLOG_YAML), database.url);
  });
  afterAll(async () => {
    await instance?.auth.close();
    await database?.drop();
  });

  it("answers a write the database cannot take 503 UNAVAILABLE with Retry-After in seconds, then 201 once it can", async () => {
    const lock = await lockEvents(database.url);
    try {
      const refused = await instance.api.post("/api/user/register", { email: "locked@example.com", password: TEST_PASSWORD });
      expect(refused.status, refused.text).toBe(503);
      expect(refused.body).toEqual({ code: "UNAVAILABLE", message: expect.any(String) });
      expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    } finally {
      await lock.release();
    }
    const created = await instance.api.post("/api/user/register", { email: "locked@example.com", password: TEST_PASSWORD });
    expect(created.status, created.text).toBe(201);
  });
});

describe("the reply of an error", () => {
  it("gives every 503 Retry-After in seconds, whatever made it, and keeps one the error names", () => {
    const plain = errorResponse(new ApiError("UNAVAILABLE", { cause: Object.assign(new Error("disk full"), { code: "SQLITE_FULL" }) }));
    expect(plain.status).toBe(503);
    expect(plain.headers["retry-after"]).toBe(String(UNAVAILABLE_RETRY_SECONDS));
    const named = errorResponse(new ApiError("UNAVAILABLE", { headers: { "retry-after": "1" } }));
    expect(named.headers["retry-after"]).toBe("1");
    // Other statuses get none of their own.
    expect(errorResponse(new ApiError("INTERNAL_ERROR")).headers["retry-after"]).toBeUndefined();
  });
});
