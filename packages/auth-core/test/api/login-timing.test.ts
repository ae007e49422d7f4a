import { TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { beforeAll, describe, expect, it } from "vitest";
import type { BcryptLibrary } from "../../src/password/bcrypt-library.js";
import { useInstance } from "../support/instance.js";
import { median } from "../support/timing.js";

/**
 * A login's time tells nothing about whether the email exists, also for passwords bcrypt cannot
 * compare (over 72 bytes, or holding U+0000): every path costs one comparison at the real cost.
 */

const CASES = [
  ["over 72 bytes", "x".repeat(73)],
  ["holding U+0000", "correct\u0000horse battery"],
] as const;
const BCRYPT_LIBRARIES: readonly BcryptLibrary[] = ["bcrypt", "bcryptjs"];
const ACCOUNTS = 3;
const TRIES_PER_ACCOUNT = 3; // under the 5 failures that lock an email

// On both bcrypt libraries: the dummy comparison must cost what a real one costs on the library in use.
const RUNS = BACKENDS.flatMap((backend) => BCRYPT_LIBRARIES.map((library) => ({ ...backend, library })));

describe.each(RUNS)("login timing on $name with $library", (backend) => {
  // The production cost, so a comparison takes tens of milliseconds and its absence shows.
  const instance = useInstance(backend.create, BLOG_YAML, { bcryptCost: 10, bcryptLibrary: backend.library });

  it("runs the library asked for", () => {
    expect(instance.auth.tools.hasher?.implementation.library).toBe(backend.library);
  });

  beforeAll(async () => {
    for (const [kind] of CASES) {
      for (let index = 0; index < ACCOUNTS; index++) {
        const response = await instance.api.post("/api/user/register", { email: knownEmail(kind, index), password: TEST_PASSWORD });
        expect(response.status).toBe(201);
      }
    }
  });

  // Each case has accounts of its own, so no email reaches the lock.
  const knownEmail = (kind: string, index: number) => `known-${kind.replace(/\W/g, "")}-${index}@example.com`;

  async function timedLogin(email: string, password: string): Promise<number> {
    const started = performance.now();
    const response = await instance.api.post("/api/user/login", { email, password });
    const elapsed = performance.now() - started;
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("INVALID_CREDENTIALS");
    return elapsed;
  }

  it.each(CASES)("a password %s takes as long for a known email as for an unknown one", async (kind, password) => {
    const known: number[] = [];
    const unknown: number[] = [];
    let unknownIndex = 0;
    for (let round = 0; round < TRIES_PER_ACCOUNT; round++) {
      for (let index = 0; index < ACCOUNTS; index++) {
        known.push(await timedLogin(knownEmail(kind, index), password));
        unknown.push(await timedLogin(`unknown-${password.length}-${unknownIndex++}@example.com`, password));
      }
    }
    const ratio = median(known) / median(unknown);
    // Without a comparison for known emails this was about 0.1.
    expect(ratio, `known ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms`).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.7);
  });
});
