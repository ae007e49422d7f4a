import { describe, expect, it } from "vitest";
import { describeSecondFactors } from "./summary.js";

describe("describeSecondFactors", () => {
  it("names the roles that must use one, and the factors there are", () => {
    expect(describeSecondFactors({ totp: true, passkeys: true, required: ["Admin", "Editor"] })).toBe(
      "Second factors: required for Admin, Editor, who add an authenticator app or a passkey at their next sign-in (setup included); anyone else may add one on /profile.",
    );
    expect(describeSecondFactors({ totp: false, passkeys: true, required: ["Admin"] })).toContain(
      "who add a passkey at their next sign-in",
    );
  });

  it("says when they are optional, and when they are off", () => {
    expect(describeSecondFactors({ totp: true, passkeys: false, required: [] })).toBe(
      "Second factors: optional; users add an authenticator app on /profile.",
    );
    expect(describeSecondFactors({ totp: false, passkeys: false, required: [] })).toBe(
      "Second factors: off (auth.mfa); a password alone signs in.",
    );
  });
});
