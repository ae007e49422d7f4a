import { type SignedIn, setUpAdmin, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { beforeAll, describe, expect, it } from "vitest";
import { readAllEvents, settled } from "../support/events.js";
import { useInstance } from "../support/instance.js";

/** What a log reader splits lines at, or a terminal obeys: none may be stored as it came. */
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/u;
const FORGED = "frank@example.com\n2026-01-01T00:00:00Z login.succeeded admin@example.com";

/**
 * Events are one line each (a value from a request never forges a log line): login refuses an email
 * that holds control characters once trimmed, and what an event keeps of a request has each control
 * character escaped.
 */
describe.each(BACKENDS)("events are one line each, on $name", (backend) => {
  const test = useInstance(backend.create);
  let admin: SignedIn;

  beforeAll(async () => {
    admin = await setUpAdmin(test.api);
  });

  it("refuses a login whose email holds a control character inside, 400 INVALID_BODY on email, and records nothing", async () => {
    for (const email of [FORGED, "frank@example.com\r\nx", "frank\u0085@example.com", "frank\u001b[2K@example.com"]) {
      const refused = await test.api.post("/api/user/login", { email, password: TEST_PASSWORD });
      expect(refused.status, JSON.stringify(email)).toBe(400);
      expect(refused.body.code).toBe("INVALID_BODY");
      expect(refused.body.issues).toEqual([{ path: ["email"], message: "must not contain control characters" }]);
    }
    // Around the address they are trimmed as before: a trailing tab or newline is a plain failed login.
    for (const email of ["frank@example.com\t", "\nfrank@example.com\n"]) {
      expect((await test.api.post("/api/user/login", { email, password: TEST_PASSWORD })).status, JSON.stringify(email)).toBe(401);
    }
    await settled(test.auth);
    const failed = await readAllEvents(test.api, admin.token, { type: "login.failed" });
    expect(failed.map((event) => event.email)).toEqual(["frank@example.com", "frank@example.com"]);
  });

  it("stores a request's User-Agent with its control characters escaped", async () => {
    const userAgent = "Evil\u000b2026-01-01 login.succeeded admin@example.com\u001b[2K\u007f";
    const wrong = await test.api.post(
      "/api/user/login",
      { email: "admin@example.com", password: "not the password" },
      { headers: { "user-agent": userAgent } },
    );
    expect(wrong.status).toBe(401);
    await settled(test.auth);
    const [event] = await readAllEvents(test.api, admin.token, { type: "login.failed" });
    expect(event?.userAgent).toBe("Evil\\u000b2026-01-01 login.succeeded admin@example.com\\u001b[2K\\u007f");
  });

  it("escapes control characters in every value an event keeps, the detail's included", async () => {
    const events = test.auth.tools.events;
    if (!events) throw new Error("no event log");
    events.later({
      type: "login.failed",
      email: FORGED,
      address: "203.0.113.9\r\n",
      userAgent: "Agent\u2028Next",
      detail: { reason: "unknown_email", typed: "a\nb\tc", count: 2 },
    });
    await settled(test.auth);
    const [event] = await readAllEvents(test.api, admin.token, { type: "login.failed" });
    expect(event).toMatchObject({
      email: "frank@example.com\\u000a2026-01-01T00:00:00Z login.succeeded admin@example.com",
      address: "203.0.113.9\\u000d\\u000a",
      userAgent: "Agent\\u2028Next",
      detail: { reason: "unknown_email", typed: "a\\u000ab\\u0009c", count: 2 },
    });
    const all = await readAllEvents(test.api, admin.token);
    for (const stored of all) expect(JSON.stringify(Object.values(stored)).match(LINE_BREAKING), stored.type).toBeNull();
  });
});
