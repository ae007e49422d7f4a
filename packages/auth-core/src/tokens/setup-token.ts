import { createHash, timingSafeEqual } from "node:crypto";

/** The shortest accepted setup token, in UTF-8 bytes: setup attempts are not throttled, so it must not be guessable. */
export const MIN_SETUP_TOKEN_BYTES = 16;

/** Tells whether a submitted value is the configured setup token. */
export type SetupTokenCheck = (candidate: unknown) => boolean;

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * Creates the check of `POST setup`'s `setupToken`. Both sides are compared as SHA-256 digests
 * with `timingSafeEqual`, so neither the content nor the length of the token shows in the timing.
 *
 * @throws {Error} when the token is shorter than {@link MIN_SETUP_TOKEN_BYTES}.
 * @example
 * const matches = createSetupTokenCheck(process.env.SETUP_TOKEN);
 * matches(body.setupToken); // true only for the same string
 */
export function createSetupTokenCheck(token: string): SetupTokenCheck {
  if (Buffer.byteLength(token, "utf8") < MIN_SETUP_TOKEN_BYTES) {
    throw new Error(`a setup token of at least ${MIN_SETUP_TOKEN_BYTES} bytes is required`);
  }
  const expected = digest(token);
  // A missing or non-string value is hashed as "" (never the token, which is not empty), so every refusal costs the same.
  return (candidate) => timingSafeEqual(digest(typeof candidate === "string" ? candidate : ""), expected);
}
