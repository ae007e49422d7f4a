const SECRET_LINE = /^[ \t]*(?:export[ \t]+)?AUTH_SECRET[ \t]*=(.*)$/m;

/**
 * `.env.local` with an `AUTH_SECRET`: the text to write, or `null` when the file already has a
 * non-empty one. An empty `AUTH_SECRET=` line is filled in; otherwise a line is appended.
 *
 * @param existing the current text, `null` when the file does not exist.
 */
export function withAuthSecret(existing: string | null, secret: string): string | null {
  const line = `AUTH_SECRET=${secret}`;
  if (existing === null || existing === "") return `${line}\n`;
  const match = SECRET_LINE.exec(existing);
  if (match) {
    const value = (match[1] ?? "").trim().replace(/^(["'])(.*)\1$/, "$2");
    if (value.length > 0) return null;
    return existing.replace(SECRET_LINE, line);
  }
  return `${existing}${existing.endsWith("\n") ? "" : "\n"}${line}\n`;
}

/** The commented e-mail settings `.env.local` gets, so they are found where the secret is. */
export const MAIL_PLACEHOLDERS = `# E-mail for password reset, verified addresses and invitations (see domain-auth's docs/mail.md).
# Without SMTP_URL, development prints each e-mail (recipient, subject, link) to the server's output,
# and production turns those endpoints off. APP_URL is where the links point (required with SMTP_URL in production).
# SMTP_URL=smtp://user:password@smtp.example.com:587
# APP_URL=https://app.example.com
# MAIL_FROM=no-reply@example.com
`;

/**
 * `.env.local` with the commented e-mail settings ({@link MAIL_PLACEHOLDERS}) appended, or the same
 * text when it mentions `SMTP_URL` already (set, or commented out), so a rerun changes nothing.
 */
export function withMailPlaceholders(existing: string): string {
  if (/^[ \t#]*(?:export[ \t]+)?SMTP_URL[ \t]*=/m.test(existing)) return existing;
  const separator = existing === "" ? "" : existing.endsWith("\n") ? "\n" : "\n\n";
  return `${existing}${separator}${MAIL_PLACEHOLDERS}`;
}
