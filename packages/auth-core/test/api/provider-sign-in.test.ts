import { BACKENDS } from "@domain-auth/test-support/databases";
import { describe, expect, it } from "vitest";
import { useProviderTest } from "../support/provider-flow.js";

describe.each(BACKENDS)("sign-in with an OpenID provider on $name", (backend) => {
  const test = useProviderTest(backend.create, {
    accounts: {
      alice: { email: "Alice@Example.com", email_verified: true, name: "Alice Liddell" },
    },
  });

  it("signs up a new person with a vouched e-mail, sets the session cookies and goes to next", async () => {
    // Setup first: no account is ever made before the first administrator.
    await test.instance.api.post("/api/user/setup", { email: "admin@example.com", password: "correct horse battery" });
    const browser = test.browser();
    const answer = await test.signIn(browser, "alice", "/dashboard");
    expect(answer.status, answer.text).toBe(302);
    expect(answer.headers.get("location")).toBe("/dashboard");
    expect(browser.signedIn).toBe(true);
    const me = await browser.get("/api/user/me");
    expect(me.status, me.text).toBe(200);
    expect(me.body.user).toMatchObject({ email: "alice@example.com", name: "Alice Liddell", role: "Reader" });
    const identities = await browser.get("/api/user/identities");
    expect(identities.body.items).toEqual([
      { id: expect.any(String), provider: "acme", email: "Alice@Example.com", createdAt: expect.any(String) },
    ]);
  });
});
