import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Writes a file atomically: a temporary file beside it, then a rename over it, so a reader sees the
 * old content or the new one, never a part. An existing file keeps its permissions.
 */
export async function writeFileAtomic(path: string, content: string, options: { mode?: number } = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const mode = await stat(path).then(
    (existing) => existing.mode & 0o777,
    () => options.mode ?? 0o644,
  );
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, content, { mode, flag: "wx" });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/** Reads a text file, or `null` when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
