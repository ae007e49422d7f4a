import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "test", "coverage"]);

/**
 * The source files of the packages under `packages/`, relative to the root: TypeScript and
 * JavaScript, without their tests (a suite's `describe` callback lists cases; it holds no logic).
 */
export function packageSourceFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path);
      } else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) {
        files.push(relative(ROOT, path));
      }
    }
  };
  walk(join(ROOT, "packages"));
  return files.sort();
}
