import { createHash, randomBytes, randomInt } from "node:crypto";

/** Recovery codes a user gets at once (docs/mfa.md). */
export const RECOVERY_CODE_COUNT = 10;
/** 32 symbols that cannot be mistaken for one another (no l, o, 0 or 1): 5 bits each. */
const RECOVERY_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
/** Symbols of a recovery code: 80 bits, shown as four groups of four. */
const RECOVERY_CODE_LENGTH = 16;
/** Prefix of an mfa token, so a bearer token can be told from a JWT without trying to verify it. */
export const MFA_TOKEN_PREFIX = "mfa_";

/** The SHA-256 of a secret, base64url: what the tables hold and are searched by. */
export function hashSecret(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("base64url");
}

/** A new mfa token (after a password, or for a required enrolment): 256 random bits. */
export function newMfaToken(): string {
  return `${MFA_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** A new recovery code, `xxxx-xxxx-xxxx-xxxx`. */
export function newRecoveryCode(): string {
  const symbols = Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return symbols.join("").replace(/(.{4})(?!$)/g, "$1-");
}

/**
 * A recovery code as typed, in the form it is hashed in: lower case, without spaces or hyphens;
 * `null` when it cannot be one.
 */
export function normalizeRecoveryCode(input: string): string | null {
  const code = input.toLowerCase().replace(/[\s-]/g, "");
  if (code.length !== RECOVERY_CODE_LENGTH) return null;
  return [...code].every((symbol) => RECOVERY_ALPHABET.includes(symbol)) ? code : null;
}
