/**
 * The bounds of a password, without the common-password estimate: what a page needs to say before
 * anything is typed, and what sign-in checks (`isComparable`), with no dictionary to load.
 */

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

const encoder = new TextEncoder();

/** Why a new password's characters or length are refused (a NUL, too short, too long), or `undefined`. */
export function passwordLengthProblem(password: string): string | undefined {
  if (password.includes("\u0000")) return "must not contain the NUL character";
  if ([...password].length < MIN_PASSWORD_CHARACTERS) return `must be at least ${MIN_PASSWORD_CHARACTERS} characters long`;
  if (encoder.encode(password).byteLength > MAX_PASSWORD_BYTES) {
    return `must be at most ${MAX_PASSWORD_BYTES} bytes long in UTF-8: ${MAX_PASSWORD_BYTES} plain letters or digits, fewer with accented letters or emoji (2 to 4 bytes each)`;
  }
  return undefined;
}

/** `true` when bcrypt could compare this password without truncating it. */
export function isComparable(password: string): boolean {
  return encoder.encode(password).byteLength <= MAX_PASSWORD_BYTES && !password.includes("\u0000");
}
