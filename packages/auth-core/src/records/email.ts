/** The longest accepted email address. */
export const MAX_EMAIL_LENGTH = 254;

/** Trimmed, NFKC-normalized and lower-cased: one spelling per account. */
export function normalizeEmail(email: string): string {
  return email.normalize("NFKC").trim().toLowerCase();
}

/** Why a (normalized) email is refused, or `undefined`. */
export function emailProblem(email: string): string | undefined {
  if (email.length === 0) return "is required";
  if (email.length > MAX_EMAIL_LENGTH) return `must be at most ${MAX_EMAIL_LENGTH} characters`;
  if (/\p{Cc}/u.test(email)) return "must not contain control characters";
  // Zero-width characters, bidirectional overrides, soft hyphens: addresses that read alike but differ.
  if (/\p{Cf}/u.test(email)) return "must not contain invisible or format characters";
  if (/\s/u.test(email)) return "must not contain spaces";
  const parts = email.split("@");
  if (parts.length !== 2) return "must contain exactly one @";
  const [local, domain] = parts as [string, string];
  if (local.length === 0) return "needs a name before the @";
  if (!domain.includes(".") || domain.startsWith(".") || domain.endsWith(".")) return "needs a domain with a dot after the @";
  return undefined;
}
