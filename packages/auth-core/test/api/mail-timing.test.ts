import { BACKENDS } from "@domain-auth/test-support/databases";
import { describe, expect, it } from "vitest";
import { MAIL_PATHS, median, pause, useMailTimingInstance } from "../support/timing.js";

/**
 * forgot-password and resend-verification take as long for an email that has an account as for
 * one that has none (docs/mail.md), measured as the login timing test does: medians, compared.
 */

const ACCOUNTS = 8;
const ROUNDS = 3; // under the 5 requests per email that throttle

describe.each(BACKENDS)("mail request timing on $name", (backend) => {
  const { test, knownEmail, freshAddress } = useMailTimingInstance(backend.create, { accounts: ACCOUNTS });

  async function timed(path: string, email: string): Promise<number> {
    const started = performance.now();
    const answer = await test.api.post(`/api/user/${path}`, { email }, { headers: freshAddress() });
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(202);
    return elapsed;
  }

  it.each(MAIL_PATHS)("%s takes as long for a known email as for an unknown one", async (path) => {
    const known: number[] = [];
    const unknown: number[] = [];
    let unknownIndex = 0;
    const measureKnown = async (round: number, index: number) => {
      known.push(await timed(path, knownEmail(path, index)));
      // The message is sent after the answer: let it go, and the mail thread settle, before the next measurement.
      await test.mail.waitFor(knownEmail(path, index), { count: round });
      await pause(50);
    };
    const measureUnknown = async () => {
      unknown.push(await timed(path, `unknown-${path}-${unknownIndex++}@example.com`));
      await pause(10);
    };
    for (let round = 1; round <= ROUNDS; round++) {
      for (let index = 0; index < ACCOUNTS; index++) {
        // Each goes first half the time: whatever one leaves behind falls on both alike.
        if (index % 2 === 0) {
          await measureKnown(round, index);
          await measureUnknown();
        } else {
          await measureUnknown();
          await measureKnown(round, index);
        }
      }
    }
    const ratio = median(known) / median(unknown);
    expect(ratio, `known ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms`).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.7);
  });
});
