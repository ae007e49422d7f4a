import { beforeAll, describe, expect, it } from "vitest";
import { setUpAdmin, TEST_PASSWORD } from "../../../../test/support/accounts.js";
import { BACKENDS } from "../../../../test/support/databases.js";
import { BLOG_YAML } from "../support/domains.js";
import { useMailInstance } from "../support/mail.js";

/**
 * forgot-password and resend-verification take as long for an email that has an account as for
 * one that has none (CONTRACT 11), measured as the login timing test does: medians, compared.
 */

const ADDRESS_HEADER = "x-test-client-address";
const ACCOUNTS = 8;
const ROUNDS = 3; // under the 5 requests per email that throttle

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(BACKENDS)("mail request timing on $name", (backend) => {
  let requests = 0;
  const test = useMailInstance(backend.create, BLOG_YAML, {
    // Each request from its own address, so the per-address limit stays out of the measurement.
    clientAddress: (request) => request.headers.get(ADDRESS_HEADER) ?? "198.51.100.1",
  });
  const knownEmail = (path: string, index: number) => `known-${path}-${index}@example.com`;

  beforeAll(async () => {
    await setUpAdmin(test.api);
    for (const path of ["forgot-password", "resend-verification"]) {
      for (let index = 0; index < ACCOUNTS; index++) {
        const answer = await test.api.post("/api/user/register", { email: knownEmail(path, index), password: TEST_PASSWORD });
        expect(answer.status).toBe(201);
      }
    }
  });

  async function timed(path: string, email: string): Promise<number> {
    const started = performance.now();
    const answer = await test.api.post(`/api/user/${path}`, { email }, { headers: { [ADDRESS_HEADER]: `192.0.2.${++requests % 250}` } });
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(202);
    return elapsed;
  }

  it.each(["forgot-password", "resend-verification"])("%s takes as long for a known email as for an unknown one", async (path) => {
    const known: number[] = [];
    const unknown: number[] = [];
    let unknownIndex = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      for (let index = 0; index < ACCOUNTS; index++) {
        known.push(await timed(path, knownEmail(path, index)));
        // The message is sent after the answer: let it go before the next measurement.
        await test.mail.waitFor(knownEmail(path, index), { count: round });
        await pause(10);
        unknown.push(await timed(path, `unknown-${path}-${unknownIndex++}@example.com`));
        await pause(10);
      }
    }
    const ratio = median(known) / median(unknown);
    expect(ratio, `known ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms`).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.7);
  });
});
