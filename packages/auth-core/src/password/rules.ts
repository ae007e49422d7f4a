import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

/** bcrypt reads at most this many bytes of a password. */
export const MAX_PASSWORD_BYTES = 72;
/** The shortest accepted password, in characters (Unicode code points): what people count. */
export const MIN_PASSWORD_CHARACTERS = 8;
/**
 * The shortest accepted password in UTF-8 bytes, for a caller that counts bytes: eight characters
 * are at least eight bytes.
 * @deprecated the rule counts characters: {@link MIN_PASSWORD_CHARACTERS}
 */
export const MIN_PASSWORD_BYTES = MIN_PASSWORD_CHARACTERS;
/** What {@link passwordProblem} says of a password among the most common ones (or as easy to guess). */
export const COMMON_PASSWORD_PROBLEM = "is too common or too easy to guess (like “password” or “12345678”): choose a less common one";

/** How hard a password is to guess, from 0 (among the most common) to 4 (very hard). */
export type PasswordScore = 0 | 1 | 2 | 3 | 4;

/**
 * The estimate looks at this many characters at most: its cost grows with the length, and a password
 * this long is hard to guess for its length alone.
 */
const ESTIMATED_CHARACTERS = 64;

const encoder = new TextEncoder();
let estimator: ZxcvbnFactory | undefined;

/**
 * zxcvbn's estimate of `password` (offline: the common-password and word lists are part of the
 * package), made once and kept: only where a password is set, never when one is checked at sign-in.
 */
export function passwordScore(password: string): PasswordScore {
  estimator ??= new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs });
  return estimator.check([...password].slice(0, ESTIMATED_CHARACTERS).join("")).score as PasswordScore;
}

/**
 * Why a new password is refused, or `undefined` when it is acceptable: a NUL, fewer than
 * {@link MIN_PASSWORD_CHARACTERS} characters, more than {@link MAX_PASSWORD_BYTES} UTF-8 bytes (all
 * bcrypt reads), or a score of 0 (among the most common passwords, or as easy to guess).
 */
export function passwordProblem(password: string): string | undefined {
  if (password.includes("\u0000")) return "must not contain the NUL character";
  if ([...password].length < MIN_PASSWORD_CHARACTERS) return `must be at least ${MIN_PASSWORD_CHARACTERS} characters long`;
  if (encoder.encode(password).byteLength > MAX_PASSWORD_BYTES) {
    return `must be at most ${MAX_PASSWORD_BYTES} bytes long in UTF-8: ${MAX_PASSWORD_BYTES} plain letters or digits, fewer with accented letters or emoji (2 to 4 bytes each)`;
  }
  if (passwordScore(password) === 0) return COMMON_PASSWORD_PROBLEM;
  return undefined;
}

/** `true` when bcrypt could compare this password without truncating it. */
export function isComparable(password: string): boolean {
  return encoder.encode(password).byteLength <= MAX_PASSWORD_BYTES && !password.includes("\u0000");
}
