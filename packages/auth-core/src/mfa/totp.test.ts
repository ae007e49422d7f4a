import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { matchTotpStep, newTotpSecret, otpauthUrl, TOTP_PARAMETERS, totpCodeAt, totpStepAt } from "./totp.js";

/** RFC 6238 appendix B: the SHA-1 seed, base32. */
const RFC_SECRET = Secret.fromLatin1("12345678901234567890").base32;

/** RFC 6238 appendix B, SHA-1: time in seconds, the 8-digit TOTP. */
const RFC_VECTORS = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
] as const;

describe("TOTP", () => {
  it.each(RFC_VECTORS)("gives the RFC 6238 SHA-1 value at %i s, six digits of it as our code", (seconds, expected) => {
    const timestamp = seconds * 1000;
    const eightDigits = TOTP.generate({ secret: Secret.fromBase32(RFC_SECRET), ...TOTP_PARAMETERS, digits: 8, timestamp });
    expect(eightDigits).toBe(expected);
    // A code of d digits is the truncated value mod 10^d: our six digits are the vector's last six.
    expect(totpCodeAt(RFC_SECRET, timestamp)).toBe(expected.slice(2));
    expect(matchTotpStep(RFC_SECRET, expected.slice(2), timestamp)).toBe(Math.floor(seconds / 30));
  });

  it("accepts the codes of one step either side, and names the step each belongs to", () => {
    const now = 1_700_000_015_000;
    const step = totpStepAt(now);
    for (const offset of [-1, 0, 1]) {
      expect(matchTotpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, now + offset * 30_000), now)).toBe(step + offset);
    }
    for (const offset of [-2, 2]) {
      expect(matchTotpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, now + offset * 30_000), now)).toBeNull();
    }
  });

  it.each(["", "12345", "1234567", "12345a", " 123456", "１２３４５６"])("refuses %j without comparing", (code) => {
    expect(matchTotpStep(RFC_SECRET, code, Date.now())).toBeNull();
  });

  it("makes 160-bit secrets, each different", () => {
    const secrets = new Set(Array.from({ length: 20 }, newTotpSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) expect(Secret.fromBase32(secret).bytes.length).toBe(20);
  });

  it("writes the otpauth URI apps read: issuer, account, SHA1, 6 digits, 30 s", () => {
    const url = new URL(otpauthUrl(RFC_SECRET, { issuer: "blog", account: "ada@example.com" }));
    expect(`${url.protocol}//${url.host}`).toBe("otpauth://totp");
    expect(decodeURIComponent(url.pathname)).toBe("/blog:ada@example.com");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      issuer: "blog",
      secret: RFC_SECRET,
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});
