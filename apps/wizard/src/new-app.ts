import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { newNextConfig } from "./next-config.js";
import { newPackageJson } from "./package-json.js";
import { builtVersions, TEMPLATES_DIR } from "./templates-dir.js";
import { newTsconfig } from "./tsconfig.js";

/** The `.gitignore` of a new app, before the wizard's own entries. */
export const NEW_APP_IGNORES = "node_modules/\n.next/\nnext-env.d.ts\n*.tsbuildinfo\n";

/** The root files of a new app (`templates/next-root/`): its root layout and stylesheet, a home page linking to the auth pages, an icon. */
async function rootFiles(templatesDir: string, options: { hasAuth: boolean }): Promise<{ to: string; content: string }[]> {
  const read = (file: string) => readFile(join(templatesDir, "next-root", "app", file), "utf8");
  return [
    { to: "app/layout.tsx", content: await read("layout.tsx") },
    { to: "app/page.tsx", content: await read(options.hasAuth ? "page.tsx" : "page.no-auth.tsx") },
    { to: "app/globals.css", content: await read("globals.css") },
    { to: "app/icon.svg", content: await read("icon.svg") },
  ];
}

/**
 * The files that make a folder without `package.json` a runnable Next.js app, besides the
 * templates: `package.json`, `tsconfig.json`, `next.config.ts`, and a root layout and home page
 * unless the templates bring them.
 */
export async function newAppFiles(options: {
  name: string;
  coreVersion: string;
  hasAuth: boolean;
  templates: readonly { to: string }[];
  templatesDir?: string;
}): Promise<{ to: string; content: string }[]> {
  const templatesDir = options.templatesDir ?? TEMPLATES_DIR;
  const versions = await builtVersions(templatesDir);
  const brought = new Set(options.templates.map((template) => template.to));
  const files = [
    { to: "package.json", content: newPackageJson({ name: options.name, coreVersion: options.coreVersion, versions }) },
    { to: "tsconfig.json", content: newTsconfig("") },
    { to: "next.config.ts", content: newNextConfig() },
    ...(await rootFiles(templatesDir, options)),
  ];
  return files.filter((file) => !brought.has(file.to));
}
