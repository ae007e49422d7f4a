import { createServer } from "node:net";
import { setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { beforeAll, describe, expect, it } from "vitest";
import { useMailInstance } from "../support/mail.js";

/**
 * A mail server that is down or slow never shows in the answers (docs/mail.md): forgot-password is
 * 202 in its usual time, the failure is logged, and a send waits for the server a bounded time.
 */

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const downUrl = `smtp://127.0.0.1:${await closedPort()}`;

async function waitUntil(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(BACKENDS)("mail server down on $name", (backend) => {
  const test = useMailInstance(backend.create, BLOG_YAML, { smtpUrl: () => downUrl });

  beforeAll(async () => {
    await setUpAdmin(test.api);
  });

  it("answers forgot-password 202 {} for a known email and logs the failure, without the link", async () => {
    const email = "down@example.com";
    await signUp(test.api, { email });
    const answer = await test.api.post("/api/user/forgot-password", { email });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({});
    await waitUntil("the failure to be logged", () => test.logs.length > 0);
    expect(test.logs[0]).toMatch(/^domain-auth: could not send the password reset e-mail: .*ECONNREFUSED/);
    expect(test.logs.join("\n")).not.toMatch(/token=|reset-password\?/);
  });
});

describe.each(BACKENDS)("slow mail server on $name", (backend) => {
  const test = useMailInstance(backend.create, BLOG_YAML, { smtpTimeoutMs: 1_500 });

  beforeAll(async () => {
    await setUpAdmin(test.api);
  });

  it("answers at once while the server takes seconds, and the message still arrives", async () => {
    const email = "patient@example.com";
    await signUp(test.api, { email });
    test.mail.delay(1_000);
    try {
      const started = performance.now();
      const answer = await test.api.post("/api/user/forgot-password", { email });
      const elapsed = performance.now() - started;
      expect(answer.status).toBe(202);
      expect(elapsed).toBeLessThan(500);
      await test.mail.waitFor(email);
    } finally {
      test.mail.delay(0);
    }
  });

  it("gives up on a server that does not answer within the timeout, and logs it", async () => {
    const email = "abandoned@example.com";
    await signUp(test.api, { email });
    test.mail.delay(4_000);
    try {
      const started = Date.now();
      expect((await test.api.post("/api/user/forgot-password", { email })).status).toBe(202);
      await waitUntil("the timeout to be logged", () => test.logs.some((line) => /timeout/i.test(line)));
      expect(Date.now() - started).toBeLessThan(3_500);
    } finally {
      test.mail.delay(0);
    }
  });
});
