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

/** The folder of files that replace their `next/` namesakes in a project with `cacheComponents` on. */
export const CACHE_COMPONENTS_VARIANT = "next-cache-components";

/** What about the project changes which file a template gives. */
export interface RenderOptions {
  /** `next.config` turns on `cacheComponents`: files of `next-cache-components/` replace their `next/` namesakes. */
  readonly cacheComponents?: boolean;
  readonly templatesDir?: string;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The files the manifest gives for a domain: each selected template's content and where it goes. */
export async function renderTemplates(
  manifest: BridgeManifest,
  model: DomainModel,
  options: RenderOptions = {},
): Promise<{ to: string; content: string }[]> {
  const templatesDir = options.templatesDir ?? TEMPLATES_DIR;
  const variantOf = (from: string) =>
    options.cacheComponents && from.startsWith("next/")
      ? join(templatesDir, CACHE_COMPONENTS_VARIANT, from.slice("next/".length))
      : undefined;
  return Promise.all(
    selectTemplates(manifest, model).map(async (template) => {
      const variant = variantOf(template.from);
      const content = (variant && (await readIfExists(variant))) ?? (await readFile(join(templatesDir, template.from), "utf8"));
      return { to: template.to, content };
    }),
  );
}
