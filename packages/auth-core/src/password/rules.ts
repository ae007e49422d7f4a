/** bcrypt reads at most this many bytes of a password. */
export const MAX_PASSWORD_BYTES = 72;
/** The shortest accepted password, in UTF-8 bytes. */
export const MIN_PASSWORD_BYTES = 8;

const encoder = new TextEncoder();

/** Why a new password is refused, or `undefined` when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const bytes = encoder.encode(password).byteLength;
  if (password.includes("\u0000")) return "must not contain the NUL character";
  if (bytes < MIN_PASSWORD_BYTES) return `must be at least ${MIN_PASSWORD_BYTES} bytes long`;
  if (bytes > MAX_PASSWORD_BYTES) return `must be at most ${MAX_PASSWORD_BYTES} bytes long (UTF-8)`;
  return undefined;
}

/** `true` when bcrypt could compare this password without truncating it. */
export function isComparable(password: string): boolean {
  return encoder.encode(password).byteLength <= MAX_PASSWORD_BYTES && !password.includes("\u0000");
}
