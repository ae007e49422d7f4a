import { setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_HEADER, clientAddressFromHeader } from "../support/client-address.js";
import { useMailInstance } from "../support/mail.js";

/**
 * Throttles of forgot-password and resend-verification (docs/mail.md): 5 well-formed requests per
 * email and 20 per client address within an hour, known and unknown emails alike; malformed
 * requests do not count; the two endpoints count separately.
 */

describe.each(BACKENDS)("mail throttles on $name", (backend) => {
  const test = useMailInstance(backend.create, BLOG_YAML, { clientAddress: clientAddressFromHeader });
  let counter = 0;
  const freshAddress = () => `203.0.113.${++counter}`;
  const ask = (path: string, body: unknown, address: string) =>
    test.api.post(`/api/user/${path}`, body, { headers: { [ADDRESS_HEADER]: address } });

  beforeAll(async () => {
    await setUpAdmin(test.api);
    await signUp(test.api, { email: "known@example.com" });
  });

  it.each(["known@example.com", "unknown@example.com"])(
    "allows 5 requests for %s within an hour, then 429 with Retry-After",
    async (email) => {
      for (let request = 0; request < 5; request++) expect((await ask("forgot-password", { email }, freshAddress())).status).toBe(202);
      const refused = await ask("forgot-password", { email: email.toUpperCase() }, freshAddress());
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("TOO_MANY_ATTEMPTS");
      const wait = Number(refused.headers.get("retry-after"));
      expect(wait).toBeGreaterThan(3000);
      expect(wait).toBeLessThanOrEqual(3600);
      // Counted apart: the other endpoint still answers for this email.
      expect((await ask("resend-verification", { email }, freshAddress())).status).toBe(202);
    },
  );

  it("allows 20 requests from one address within an hour, whatever the emails, and does not count malformed ones", async () => {
    const address = freshAddress();
    for (let request = 0; request < 10; request++) expect((await ask("forgot-password", { email: "malformed" }, address)).status).toBe(400);
    for (let request = 0; request < 20; request++) {
      const email = request % 2 === 0 ? `someone-${request}@example.com` : "known@example.com".replace("known", `k${request}`);
      expect((await ask("forgot-password", { email }, address)).status, `request ${request + 1}`).toBe(202);
    }
    const refused = await ask("forgot-password", { email: "one-more@example.com" }, address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await ask("resend-verification", { email: "one-more@example.com" }, address)).status).toBe(202);
    // Validation comes first: a malformed body is still 400, not 429.
    expect((await ask("forgot-password", { email: "malformed" }, address)).status).toBe(400);
  });
});
