import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder holding `manifest.yaml` and the template files, shipped with the package. */
export const TEMPLATES_DIR = fileURLToPath(new URL("../templates/", import.meta.url));

/** The package versions the wizard was built against (`next/versions.json`, written by scripts/sync-templates.mjs). */
export async function builtVersions(templatesDir: string = TEMPLATES_DIR): Promise<Record<string, string>> {
  return JSON.parse(await readFile(join(templatesDir, "next", "versions.json"), "utf8")) as Record<string, string>;
}
