import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const SKIPPED_FOLDERS = new Set(["node_modules", "dist", ".next", "test", "coverage"]);

/** Tests and type declarations: a suite's `describe` callback lists cases; it holds no logic. */
const NOT_SOURCE = /\.(test|d)\.tsx?$/;

/** The files below `folders` (relative to the root) whose names match `extension`, tests left out, relative to the root. */
function sourceFilesUnder(folders: readonly string[], extension: RegExp): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path);
      } else if (extension.test(entry.name) && !NOT_SOURCE.test(entry.name)) {
        files.push(relative(ROOT, path));
      }
    }
  };
  for (const folder of folders) walk(join(ROOT, folder));
  return files.sort();
}

/** The source files of the packages under `packages/`, relative to the root: TypeScript and JavaScript, without their tests. */
export function packageSourceFiles(): string[] {
  return sourceFilesUnder(["packages"], /\.(ts|tsx|js|mjs)$/);
}

/**
 * The source files of the apps, relative to the root: the wizard's `src/` and the web app's `app/`,
 * `components/` and `lib/`, TypeScript only, without their tests; and the web app's `server.mjs`.
 */
export function appSourceFiles(): string[] {
  // server.mjs is the production server the wizard scaffolds: held to the same rules as the app's TypeScript.
  return [
    ...sourceFilesUnder(["apps/wizard/src", "apps/web/app", "apps/web/components", "apps/web/lib"], /\.tsx?$/),
    "apps/web/server.mjs",
  ];
}
