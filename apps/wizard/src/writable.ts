import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { dirname, relative } from "node:path";

/** Why the wizard could not write its files in a folder, as one sentence; `undefined` when it can. */
export type WritableProblem = string | undefined;

async function nearestExisting(path: string): Promise<string> {
  for (let current = path; ; current = dirname(current)) {
    try {
      await stat(current);
      return current;
    } catch (error) {
      // Only a missing folder is one the wizard would create; any other failure is this folder's.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(current) === current) return current;
    }
  }
}

/**
 * Checks, before any question, that the wizard may write in `root` (or create it, when it does not
 * exist yet), so a folder it may not change is said at once rather than after the last answer.
 *
 * @param shown `root` as the user typed it ("." for the folder the wizard runs in).
 * @param cwd the folder the wizard runs in, for naming a parent folder.
 */
export async function checkWritable(root: string, options: { shown: string; cwd: string }): Promise<WritableProblem> {
  const existing = await nearestExisting(root);
  try {
    await access(existing, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "an error";
    const why = code === "EROFS" ? "the file system is read-only" : code === "EACCES" || code === "EPERM" ? "permission denied" : code;
    const name = (path: string) => relative(options.cwd, path) || "this folder";
    if (existing === root || options.shown === ".") {
      return `Cannot write in ${options.shown === "." ? "this folder" : options.shown} (${why}); pick a folder you may change.`;
    }
    return `Cannot create ${options.shown} in ${name(existing)} (${why}); pick a folder you may change.`;
  }
}
