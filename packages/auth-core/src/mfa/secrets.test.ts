import { describe, expect, it } from "vitest";
import { hashSecret, MFA_TOKEN_PREFIX, newMfaToken, newRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from "./secrets.js";

describe("second-factor secrets", () => {
  it("makes recovery codes of 16 unambiguous symbols in groups of four, read back however typed", () => {
    const codes = Array.from({ length: 200 }, newRecoveryCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code).toMatch(/^[a-km-np-z2-9]{4}(-[a-km-np-z2-9]{4}){3}$/);
      const typed = ` ${code.toUpperCase().replaceAll("-", " ")} `;
      expect(normalizeRecoveryCode(typed)).toBe(code.replaceAll("-", ""));
    }
    expect(RECOVERY_CODE_COUNT).toBe(10);
  });

  it.each(["", "abcd-efgh-ijkm", "abcd-efgh-ijkm-npqr-stuv", "abcd-efgh-ijkl-mnop", "0bcd-efgh-ijkm-npqr"])(
    "reads %j as no recovery code",
    (input) => {
      expect(normalizeRecoveryCode(input)).toBeNull();
    },
  );

  it("makes mfa tokens with a prefix and 256 random bits, hashed for storage", () => {
    const token = newMfaToken();
    expect(token.startsWith(MFA_TOKEN_PREFIX)).toBe(true);
    expect(Buffer.from(token.slice(MFA_TOKEN_PREFIX.length), "base64url")).toHaveLength(32);
    expect(hashSecret(token)).toMatch(/^[\w-]{43}$/);
    expect(hashSecret(token)).not.toBe(hashSecret(newMfaToken()));
  });
});
