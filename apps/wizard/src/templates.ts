import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BridgeManifest, type DomainModel, formatDiagnostic, selectTemplates, validateManifestText } from "@domain-auth/core/config";

/** The folder holding `manifest.yaml` and the template files, shipped with the package. */
export const TEMPLATES_DIR = fileURLToPath(new URL("../templates/", import.meta.url));

/**
 * Reads and validates the bridge manifest.
 *
 * @throws {Error} listing every problem when the manifest is invalid.
 */
export async function loadManifest(templatesDir: string = TEMPLATES_DIR): Promise<BridgeManifest> {
  const file = join(templatesDir, "manifest.yaml");
  const { manifest, diagnostics } = validateManifestText(await readFile(file, "utf8"));
  if (!manifest) throw new Error(`invalid bridge manifest:\n${diagnostics.map((d) => formatDiagnostic(file, d)).join("\n")}`);
  return manifest;
}

/** The files the manifest gives for a domain: each selected template's content and where it goes. */
export async function renderTemplates(
  manifest: BridgeManifest,
  model: DomainModel,
  templatesDir: string = TEMPLATES_DIR,
): Promise<{ to: string; content: string }[]> {
  return Promise.all(
    selectTemplates(manifest, model).map(async (template) => ({
      to: template.to,
      content: await readFile(join(templatesDir, template.from), "utf8"),
    })),
  );
}
