import { randomBytes } from "node:crypto";
import { addUser, type SignedIn, setUpAdmin } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { type Answer, call } from "@domain-auth/test-support/http-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { printFigures } from "./support/figures.js";
import { tally } from "./support/races.js";

/**
 * The burst attacks on throttling, replayed against the production server on SQLite and on
 * PostgreSQL (two instances): every request of a burst is sent at once, so a check made before
 * any of them failed would let them all through. The server trusts one proxy hop, so each
 * scenario speaks from an address of its own.
 */

/** On PostgreSQL two instances share the database, so the limits must hold across them. */
const INSTANCES = { sqlite: 1, postgres: 2 } as const;

interface BurstRequest {
  readonly path: string;
  readonly body: unknown;
  readonly method?: string;
  readonly token?: string;
}

describe.each(BACKENDS)("throttling bursts against the production server on $name", (backend) => {
  const instances = INSTANCES[backend.name];
  const figures: Record<string, number> = {};
  let apps: RunningApp[] = [];
  let database: TestDatabase | undefined;
  let admin: SignedIn;

  beforeAll(async () => {
    database = await backend.create();
    const env = { DATABASE_URL: database.url, TRUST_PROXY: "1", AUTH_SECRET: randomBytes(32).toString("base64url") };
    apps = await Promise.all(Array.from({ length: instances }, () => startApp({ env })));
    admin = await setUpAdmin(apps[0]?.url as string);
  });

  afterAll(async () => {
    printFigures(`throttle-bursts.test.ts (${backend.name}, ${instances} instance(s))`, figures);
    await Promise.all(apps.map((app) => app.stop()));
    await database?.drop();
  });

  /**
   * Sends every request at once, spread over the instances, from `address`. Those the bounded hash
   * queue sheds (503, never compared) are sent again, all at once, after their `Retry-After`, until
   * each has a final answer: every wave is a burst, and the tally counts final answers only.
   */
  async function burst(address: string, requests: readonly BurstRequest[]): Promise<Answer[]> {
    const answers: Answer[] = [];
    let pending = requests.map((request, index) => ({ request, index }));
    let retryAfterMs = 0;
    for (let wave = 0; pending.length > 0; wave++) {
      if (wave === 30) throw new Error(`${pending.length} requests still shed after 30 waves`);
      if (wave > 0) await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
      const sent = await Promise.all(
        pending.map(({ request, index }) =>
          call(apps[index % apps.length]?.url as string, { ...request, headers: { "x-forwarded-for": address }, timeoutMs: 60_000 }),
        ),
      );
      pending.forEach(({ index }, position) => {
        answers[index] = sent[position] as Answer;
      });
      pending = pending.filter((_, position) => sent[position]?.status === 503);
      // As long as the longest Retry-After of the shed answers asks.
      retryAfterMs = Math.max(0, ...pending.map(({ index }) => Number(answers[index]?.headers.get("retry-after") ?? 0) * 1000));
    }
    return answers;
  }

  test("30 wrong passwords and the right one at once for one email: at most 5 are compared", async () => {
    const victim = await addUser(apps[0]?.url as string, admin, { email: "victim@example.com", password: "the right password" });
    const passwords = [...Array.from({ length: 30 }, (_, index) => `wrong guess ${index}`), victim.password];
    const answers = await burst(
      "198.51.100.1",
      passwords.map((password) => ({ path: "/api/user/login", body: { email: victim.email, password } })),
    );
    const counts = tally(answers);
    figures["wrong guesses answered 401 before 429 in a burst of 30"] = counts[401] ?? 0;
    expect((counts[401] ?? 0) + (counts[200] ?? 0), JSON.stringify(counts)).toBeLessThanOrEqual(5);
    expect(counts[429]).toBeGreaterThanOrEqual(26);
  });

  test("130 emails at once from one address: at most 100 are compared", async () => {
    const answers = await burst(
      "198.51.100.2",
      Array.from({ length: 130 }, (_, index) => ({
        path: "/api/user/login",
        body: { email: `spray${index}@example.com`, password: "guess guess" },
      })),
    );
    const counts = tally(answers);
    figures["emails answered 401 before 429 in a burst of 130 from one address"] = counts[401] ?? 0;
    // Attempts shed by the full hash queue were counted while in flight and given back, so the
    // address may lock before 100 were compared: never after.
    expect(counts[401], JSON.stringify(counts)).toBeLessThanOrEqual(100);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(130);
  });

  test("15 wrong currentPassword answers at once: at most 5 are compared, then the right one is locked out too", async () => {
    const owner = await addUser(apps[0]?.url as string, admin, { email: "owner@example.com", password: "the owner's password" });
    const guesses = Array.from({ length: 15 }, (_, index) => ({
      method: "PATCH",
      path: `/api/user/${owner.id}`,
      body: { email: `attacker${index}@evil.io`, currentPassword: `guess ${index}` },
      token: owner.token,
    }));
    const counts = tally(await burst("198.51.100.3", guesses));
    figures["wrong currentPassword answered 403 before 429 in a burst of 15"] = counts[403] ?? 0;
    expect(counts[403], JSON.stringify(counts)).toBeLessThanOrEqual(5);
    expect((counts[403] ?? 0) + (counts[429] ?? 0)).toBe(15);
    const right = await burst("198.51.100.4", [
      {
        method: "PATCH",
        path: `/api/user/${owner.id}`,
        body: { email: "attacker@evil.io", currentPassword: owner.password },
        token: owner.token,
      },
    ]);
    expect(right[0]?.status).toBe(429);
    // The account is untouched: the owner's token still works and carries its email.
    const me = await call(apps[0]?.url as string, { path: "/api/user/me", token: owner.token });
    expect((me.body as { user: { email: string } }).user.email).toBe(owner.email);
  });
});
