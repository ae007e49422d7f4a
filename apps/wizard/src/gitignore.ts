/** The entries the wizard keeps in `.gitignore`, with the spellings that already cover each. */
const ENTRIES = [
  { entry: ".env.local", covered: [".env.local", "/.env.local", ".env*", ".env*.local", "*.local", ".env.*"] },
  { entry: ".data/", covered: [".data", ".data/", "/.data", "/.data/"] },
] as const;

/** The entries a `.gitignore` text lacks. */
export function missingIgnoreEntries(existing: string | null): string[] {
  const lines = new Set((existing ?? "").split(/\r?\n/).map((line) => line.trim()));
  return ENTRIES.filter(({ covered }) => !covered.some((spelling) => lines.has(spelling))).map(({ entry }) => entry);
}

/**
 * `.gitignore` with `.env.local` and `.data/`: the text to write, or `null` when both are there.
 *
 * @param existing the current text, `null` when the file does not exist.
 */
export function withIgnoredEntries(existing: string | null): string | null {
  const missing = missingIgnoreEntries(existing);
  if (missing.length === 0) return null;
  const base = existing ?? "";
  const separator = base === "" || base.endsWith("\n") ? "" : "\n";
  const heading = base === "" ? "" : "\n# domain-auth\n";
  return `${base}${separator}${heading}${missing.join("\n")}\n`;
}
