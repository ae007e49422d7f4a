import { describe, expect, it } from "vitest";
import { ACCOUNT_TOKEN_LIFETIMES } from "./lifetimes.js";
import { describeLifetime, invitationMessage, resetMessage, verificationMessage } from "./templates.js";

describe("mail templates", () => {
  it("words a lifetime in the largest whole unit", () => {
    expect(describeLifetime(60)).toBe("1 minute");
    expect(describeLifetime(30 * 60)).toBe("30 minutes");
    expect(describeLifetime(90 * 60)).toBe("90 minutes");
    expect(describeLifetime(3600)).toBe("1 hour");
    expect(describeLifetime(24 * 3600)).toBe("24 hours");
    expect(describeLifetime(7 * 24 * 3600)).toBe("7 days");
  });

  it("states each link's lifetime as lifetimes.ts sets it", () => {
    const to = { service: "blog", email: "ada@example.com" };
    const link = "https://app.example.com/x?token=t";
    const messages = { reset: resetMessage(to, link), invite: invitationMessage(to, link), verify: verificationMessage(to, link) };
    for (const [kind, message] of Object.entries(messages)) {
      const lifetime = describeLifetime(ACCOUNT_TOKEN_LIFETIMES[kind as keyof typeof messages]);
      expect(message.text).toContain(`for ${lifetime}.`);
      expect(message.html).toContain(`for ${lifetime}.`);
    }
  });
});
