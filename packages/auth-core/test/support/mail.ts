import type { TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { type MailServer, startMailServer } from "@domain-auth/test-support/mail-server";
import { afterAll, beforeAll } from "vitest";
import { type Database, openDatabase } from "../../src/admin.js";
import { type CreateAuthOptions, createSmtpMailer } from "../../src/index.js";
import { startInstance, type TestInstance } from "./instance.js";

/** Where the links of test e-mails point. */
export const TEST_APP_URL = "https://app.example.com";

/** An instance that sends e-mail to a real SMTP server on 127.0.0.1, with what a test reads around it. */
export interface MailTest extends TestInstance {
  readonly mail: MailServer;
  /** The lines the instance logged about e-mail it could not send. */
  readonly logs: string[];
  /** A second connection to the instance's database, to read what it stored. */
  readonly database: Database;
  /** Moves the instance's clock (tokens, sessions, links) by this many seconds. */
  advance(seconds: number): void;
}

/**
 * Before the suite: a fresh database, an SMTP server capturing messages, and an instance sending to
 * it with links to {@link TEST_APP_URL}; its clock starts at the real time and moves only with
 * `advance`. After the suite all of it is stopped. `options` go to `createAuth` (a client address
 * from a header, say), but for the SMTP URL and timeout and the capture server to start.
 */
export function useMailInstance(
  createDatabase: () => TestDatabase | Promise<TestDatabase>,
  yaml: string = BLOG_YAML,
  options: Partial<CreateAuthOptions> & { smtpUrl?: () => string; smtpTimeoutMs?: number; mailServer?: () => Promise<MailServer> } = {},
): MailTest {
  let clock = Date.now();
  const logs: string[] = [];
  const test = {
    logs,
    advance(seconds: number) {
      clock += seconds * 1000;
    },
  } as { -readonly [K in keyof MailTest]: MailTest[K] };
  let testDatabase: TestDatabase | undefined;
  beforeAll(async () => {
    testDatabase = await createDatabase();
    const { smtpUrl, smtpTimeoutMs, mailServer = startMailServer, ...rest } = options;
    test.mail = await mailServer();
    const mailer = createSmtpMailer({
      url: smtpUrl ? smtpUrl() : test.mail.url,
      from: "Blog <no-reply@app.example.com>",
      ...(smtpTimeoutMs ? { timeoutMs: smtpTimeoutMs } : {}),
    });
    Object.assign(
      test,
      await startInstance(domainOf(yaml), testDatabase.url, {
        now: () => clock,
        mail: { mailer, appUrl: TEST_APP_URL, log: (line) => logs.push(line) },
        ...rest,
      }),
    );
    test.database = await openDatabase(testDatabase.url);
  });
  afterAll(async () => {
    await test.auth?.close();
    await test.database?.close();
    await test.mail?.close();
    await testDatabase?.drop();
  });
  return test;
}
