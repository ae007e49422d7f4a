import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { withAuthSecret, withMailPlaceholders, withProviderVariables } from "./env-file.js";
import { missingIgnoreEntries, withIgnoredEntries } from "./gitignore.js";
import { readTextIfExists, writeFileAtomic } from "./write-files.js";

/** What happens to one file of the project. */
export type FileAction = "create" | "update" | "unchanged" | "conflict" | "overwrite" | "skip";

/** One file the wizard would write, relative to the project folder. */
export interface FileChange {
  /** Path relative to the project folder, with `/`. */
  readonly path: string;
  readonly content: string;
  /** `conflict`: an existing file differs from the template; it becomes `overwrite` or `skip` once decided. */
  readonly action: FileAction;
  /** A short explanation shown in the summary. */
  readonly note?: string;
  readonly mode?: number;
}

/** A fresh `AUTH_SECRET`: 32 random bytes, base64url. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** Compares rendered templates with the files in `dir`: new, identical, or differing (a conflict). */
export async function planTemplateFiles(dir: string, files: readonly { to: string; content: string }[]): Promise<FileChange[]> {
  return Promise.all(
    files.map(async ({ to, content }): Promise<FileChange> => {
      const existing = await readTextIfExists(join(dir, to));
      if (existing === null) return { path: to, content, action: "create" };
      if (existing === content) return { path: to, content, action: "unchanged" };
      return { path: to, content, action: "conflict", note: "differs from the template" };
    }),
  );
}

/** How `.env.local` grows, in order: each step's text from the one before, and what the summary says of it. */
function envSteps(options: { secret: string; providers: readonly string[] }): [(text: string | null) => string | null, string][] {
  return [
    [(text) => withAuthSecret(text, options.secret), "a fresh AUTH_SECRET"],
    [(text) => withMailPlaceholders(text ?? ""), "e-mail settings, commented out"],
    [(text) => withProviderVariables(text ?? "", options.providers), "the providers' client ids and secrets, to fill in"],
  ];
}

/** `.env.local` with its secret, the e-mail settings and the providers' variables: what is missing added, the rest kept. */
async function planEnvFile(dir: string, options: { secret: string; providers: readonly string[] }): Promise<FileChange> {
  const env = await readTextIfExists(join(dir, ".env.local"));
  let content = env;
  const notes: string[] = [];
  for (const [step, note] of envSteps(options)) {
    const next = step(content);
    if (next === null || next === content) continue;
    content = next;
    notes.push(note);
  }
  if (content === env || content === null) return { path: ".env.local", content: env ?? "", action: "unchanged" };
  // The notes have commas of their own: three are told apart by semicolons.
  const note = notes.join(notes.length > 2 ? "; " : " and ");
  return { path: ".env.local", content, action: env === null ? "create" : "update", note, mode: 0o600 };
}

/**
 * `.env.local` with an `AUTH_SECRET`, the e-mail settings commented out and an empty line for each
 * provider's client id and secret, and `.gitignore` with `.env.local` and `.data/`.
 *
 * @param options.providers the ids of the providers the domain declares.
 * @param options.ignoreBase what a new `.gitignore` starts with (a new app's build folders).
 */
export async function planProjectFiles(
  dir: string,
  options: { secret: string; providers: readonly string[]; ignoreBase?: string },
): Promise<FileChange[]> {
  const gitignore = await readTextIfExists(join(dir, ".gitignore"));
  const gitignoreContent = gitignore === null ? `${options.ignoreBase ?? ""}${withIgnoredEntries(null)}` : withIgnoredEntries(gitignore);
  return [
    await planEnvFile(dir, options),
    gitignoreContent === null
      ? { path: ".gitignore", content: gitignore ?? "", action: "unchanged" }
      : {
          path: ".gitignore",
          content: gitignoreContent,
          action: gitignore === null ? "create" : "update",
          note: `ignores ${missingIgnoreEntries(gitignore).join(" and ")}`,
        },
  ];
}

/** Whether a change writes its file. */
export function writesFile(change: FileChange): boolean {
  return change.action === "create" || change.action === "update" || change.action === "overwrite";
}

/** Writes every change that writes a file, each atomically. */
export async function applyFileChanges(dir: string, changes: readonly FileChange[]): Promise<void> {
  for (const change of changes.filter(writesFile)) {
    await writeFileAtomic(join(dir, change.path), change.content, change.mode === undefined ? {} : { mode: change.mode });
  }
}
