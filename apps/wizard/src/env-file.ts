import { providerVariables } from "./providers.js";

/** `lines` at the end of `existing`, on a line of their own. */
function appendLines(existing: string, lines: string): string {
  return `${existing}${existing === "" || existing.endsWith("\n") ? "" : "\n"}${lines}`;
}

/** `section` at the end of `existing`, after a blank line. */
function appendSection(existing: string, section: string): string {
  const separator = existing === "" ? "" : existing.endsWith("\n") ? "\n" : "\n\n";
  return `${existing}${separator}${section}`;
}

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
  return appendLines(existing, `${line}\n`);
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
  return appendSection(existing, MAIL_PLACEHOLDERS);
}

/** The comment above the providers' variables in `.env.local`. */
export const PROVIDER_VARIABLES_HEADING =
  "# Sign-in with providers (see domain-auth's docs/providers.md): the client id and secret each one gave you.";

/** Whether `.env.local` assigns `name` (any value, an empty one included; not in a comment). */
function assigns(text: string, name: string): boolean {
  return new RegExp(`^[ \\t]*(?:export[ \\t]+)?${name}[ \\t]*=`, "m").test(text);
}

/**
 * `.env.local` with an empty `AUTH_PROVIDER_<ID>_CLIENT_ID=` and `AUTH_PROVIDER_<ID>_CLIENT_SECRET=`
 * line for each provider `ids` names whose variable the file does not assign yet, under
 * {@link PROVIDER_VARIABLES_HEADING} (written once); the same text when it assigns them all. An
 * existing value is never changed.
 */
export function withProviderVariables(existing: string, ids: readonly string[]): string {
  const missing = ids.flatMap((id) => providerVariables(id)).filter((name) => !assigns(existing, name));
  if (missing.length === 0) return existing;
  const lines = missing.map((name) => `${name}=\n`).join("");
  if (existing.includes(PROVIDER_VARIABLES_HEADING)) return appendLines(existing, lines);
  return appendSection(existing, `${PROVIDER_VARIABLES_HEADING}\n${lines}`);
}
