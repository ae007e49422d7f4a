import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** Every file under `root`, by its path relative to `root`, with its content: to show what a run changed, or that it changed nothing. */
export async function snapshotFiles(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path.slice(root.length + 1)] = await readFile(path, "utf8");
    }
  }
  return files;
}
