import { setUpAdmin, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import type { TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import type { MailServer } from "@domain-auth/test-support/mail-server";
import { beforeAll, expect } from "vitest";
import { ADDRESS_HEADER, clientAddressFromHeader } from "./client-address.js";
import { type MailTest, useMailInstance } from "./mail.js";

/** The middle value of a sample, which the timing tests compare: a few slow outliers barely move it. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Waits `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The requests that send mail to an email with an account and must take as long for one without. */
export const MAIL_PATHS = ["forgot-password", "resend-verification"] as const;

/** A {@link MailTest} for timing its mail requests, with the accounts it has. */
export interface MailTimingTest {
  readonly test: MailTest;
  /** The email of the `index`-th account made for `path`'s requests. */
  knownEmail(path: string, index: number): string;
  /** Headers that send a request from an address of its own, so the per-address limit stays out of the measurement. */
  freshAddress(): Record<string, string>;
}

/**
 * Starts a mail instance (see {@link useMailInstance}) on a blog domain whose client address a
 * request can name, and before the suite sets up the admin and registers `accounts` accounts for each
 * of {@link MAIL_PATHS}, so that every measured request can go to an email that has had fewer
 * requests than the throttle allows.
 */
export function useMailTimingInstance(
  createDatabase: () => TestDatabase | Promise<TestDatabase>,
  options: { accounts: number; mailServer?: () => Promise<MailServer> },
): MailTimingTest {
  let requests = 0;
  const test = useMailInstance(createDatabase, BLOG_YAML, {
    clientAddress: clientAddressFromHeader,
    mailServer: options.mailServer,
  });
  const knownEmail = (path: string, index: number) => `known-${path}-${index}@example.com`;
  beforeAll(async () => {
    await setUpAdmin(test.api);
    for (const path of MAIL_PATHS) {
      for (let index = 0; index < options.accounts; index++) {
        const answer = await test.api.post("/api/user/register", { email: knownEmail(path, index), password: TEST_PASSWORD });
        expect(answer.status).toBe(201);
      }
    }
  });
  return { test, knownEmail, freshAddress: () => ({ [ADDRESS_HEADER]: `192.0.2.${++requests % 250}` }) };
}
