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
