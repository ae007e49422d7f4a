import { describe, expect, it } from "vitest";
import { createSetupTokenCheck, MIN_SETUP_TOKEN_BYTES } from "./setup-token.js";

describe("setup token check", () => {
  const token = "a-setup-token-of-enough-bytes";

  it("accepts only the same string", () => {
    const matches = createSetupTokenCheck(token);
    expect(matches(token)).toBe(true);
    for (const other of [`${token} `, token.slice(0, -1), token.toUpperCase(), "", `${token}${token}`])
      expect(matches(other), other).toBe(false);
  });

  it("refuses values that are not strings", () => {
    const matches = createSetupTokenCheck(token);
    for (const other of [undefined, null, 42, true, [token], { token }]) expect(matches(other)).toBe(false);
  });

  it(`requires at least ${MIN_SETUP_TOKEN_BYTES} UTF-8 bytes`, () => {
    expect(() => createSetupTokenCheck("x".repeat(MIN_SETUP_TOKEN_BYTES - 1))).toThrow(/at least 16 bytes/);
    expect(createSetupTokenCheck("x".repeat(MIN_SETUP_TOKEN_BYTES))("x".repeat(MIN_SETUP_TOKEN_BYTES))).toBe(true);
    expect(createSetupTokenCheck("é".repeat(8))("é".repeat(8))).toBe(true);
  });
});
