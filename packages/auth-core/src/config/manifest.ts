import { z } from "zod";
import { type Diagnostic, sortDiagnostics } from "./diagnostics.js";
import type { DomainModel } from "./model.js";
import { closestMatch } from "./naming.js";
import { type Finding, parseYamlSource } from "./source.js";

/** Conditions a template's `when` may name, and how each is decided from the model. */
export const MANIFEST_CONDITIONS = {
  hasAuth: (model: DomainModel) => model.hasAuth,
} as const satisfies Record<string, (model: DomainModel) => boolean>;

export type ManifestCondition = keyof typeof MANIFEST_CONDITIONS;

const relativePath = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith("/") && !path.split(/[\\/]/).includes(".."), "must be a relative path inside the project");

const templateSchema = z.strictObject({
  from: relativePath,
  to: relativePath,
  when: z.string().optional(),
});

/** A bridge manifest: which templates to scaffold, and when. */
export const manifestSchema = z.strictObject({ templates: z.array(templateSchema) });

export type ManifestTemplate = z.infer<typeof templateSchema> & { readonly when?: ManifestCondition };
export interface BridgeManifest {
  readonly templates: readonly ManifestTemplate[];
}

/** The outcome of validating a bridge manifest text. */
export interface ManifestValidation {
  readonly manifest: BridgeManifest | null;
  readonly diagnostics: readonly Diagnostic[];
}

const TEMPLATE_KEYS = Object.keys(templateSchema.shape);

/** Parses and validates a bridge manifest; an unknown `when` condition is an error (rule 6). */
export function validateManifestText(text: string): ManifestValidation {
  const source = parseYamlSource(text);
  if (!source.parsed) return { manifest: null, diagnostics: source.diagnostics };

  const parsed = manifestSchema.safeParse(source.data ?? {});
  const findings: Finding[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path as (string | number)[];
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          const match = closestMatch(key, TEMPLATE_KEYS);
          findings.push({
            severity: "error",
            path: [...path, key],
            anchor: "key",
            message: `unknown key '${key}'${match ? ` (did you mean '${match}'?)` : ""}`,
          });
        }
      } else {
        findings.push({ severity: "error", path, anchor: issue.code === "invalid_type" ? "parent" : "value", message: issue.message });
      }
    }
  }
  const conditions = Object.keys(MANIFEST_CONDITIONS);
  const templates = (source.data as { templates?: unknown } | undefined)?.templates;
  if (Array.isArray(templates)) {
    templates.forEach((template: { when?: unknown }, index) => {
      const when = template?.when;
      if (typeof when === "string" && !conditions.includes(when)) {
        const match = closestMatch(when, conditions);
        const hint = match ? ` (did you mean '${match}'?)` : ` (known: ${conditions.join(", ")})`;
        findings.push({ severity: "error", path: ["templates", index, "when"], message: `unknown condition '${when}'${hint}` });
      }
    });
  }
  const diagnostics = sortDiagnostics([...source.diagnostics, ...findings.map(source.place)]);
  const ok = parsed.success && !diagnostics.some((d) => d.severity === "error");
  return { manifest: ok ? (parsed.data as BridgeManifest) : null, diagnostics };
}

/** The templates that apply to a model: those without `when`, and those whose condition holds. */
export function selectTemplates(manifest: BridgeManifest, model: DomainModel): ManifestTemplate[] {
  return manifest.templates.filter((template) => template.when === undefined || MANIFEST_CONDITIONS[template.when](model));
}
