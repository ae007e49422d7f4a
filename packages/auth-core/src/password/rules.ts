import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { passwordLengthProblem } from "./limits.js";

export {
  isComparable,
  MAX_PASSWORD_BYTES,
  MIN_PASSWORD_BYTES,
  MIN_PASSWORD_CHARACTERS,
  passwordLengthProblem,
} from "./limits.js";

/** What {@link passwordProblem} says of a password among the most common ones (or as easy to guess). */
export const COMMON_PASSWORD_PROBLEM = "is too common or too easy to guess (like “password” or “12345678”): choose a less common one";

/** How hard a password is to guess, from 0 (among the most common) to 4 (very hard). */
export type PasswordScore = 0 | 1 | 2 | 3 | 4;

/**
 * The estimate looks at this many characters at most: its cost grows with the length, and a password
 * this long is hard to guess for its length alone.
 */
const ESTIMATED_CHARACTERS = 64;

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
 * Why a new password is refused, or `undefined` when it is acceptable: a NUL, fewer than 8
 * characters, more than 72 UTF-8 bytes (all bcrypt reads; see `./limits.ts`), or a score of 0
 * (among the most common passwords, or as easy to guess). The one rule of every password the server
 * sets, and of the pages' strength meter (`@domain-auth/core/password`).
 */
export function passwordProblem(password: string): string | undefined {
  const problem = passwordLengthProblem(password);
  if (problem) return problem;
  if (passwordScore(password) === 0) return COMMON_PASSWORD_PROBLEM;
  return undefined;
}
