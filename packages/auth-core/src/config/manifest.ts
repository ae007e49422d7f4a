import { z } from "zod";
import { type Diagnostic, sortDiagnostics } from "./diagnostics.js";
import { describeValue } from "./issues.js";
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

const KEYS_AT_ROOT = Object.keys(manifestSchema.shape);
const TEMPLATE_KEYS = Object.keys(templateSchema.shape);
const EXPECTED: Record<string, string> = { string: "a string", array: "a list", object: "a map" };

type SchemaFinding = Finding & { readonly missing?: boolean; readonly suggests?: readonly (string | number)[] };

function manifestFindings(issue: z.core.$ZodIssue, data: unknown): SchemaFinding[] {
  const path = issue.path as (string | number)[];
  const value = path.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], data);
  if (issue.code === "unrecognized_keys") {
    const known = path.length === 0 ? KEYS_AT_ROOT : TEMPLATE_KEYS;
    return issue.keys.map((key) => {
      const match = closestMatch(key, known);
      const hint = match ? ` (did you mean '${match}'?)` : ` (expected one of: ${known.join(", ")})`;
      const suggests = match ? [...path, match] : undefined;
      return { severity: "error", path: [...path, key], anchor: "key", message: `unknown key '${key}'${hint}`, suggests };
    });
  }
  if (issue.code === "invalid_type") {
    if (value === undefined)
      return [{ severity: "error", path, anchor: "parent", message: `missing required key '${String(path.at(-1))}'`, missing: true }];
    return [{ severity: "error", path, message: `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeValue(value)}` }];
  }
  if (issue.code === "too_small") return [{ severity: "error", path, message: "must not be empty" }];
  return [{ severity: "error", path, message: issue.message }];
}

/** Parses and validates a bridge manifest; an unknown `when` condition is an error (rule 6). */
export function validateManifestText(text: string): ManifestValidation {
  const source = parseYamlSource(text);
  if (!source.parsed) return { manifest: null, diagnostics: source.diagnostics };

  const data = source.data ?? {};
  const parsed = manifestSchema.safeParse(data);
  const schemaFindings = parsed.success ? [] : parsed.error.issues.flatMap((issue) => manifestFindings(issue, data));
  const misspelt = new Set(schemaFindings.flatMap((finding) => (finding.suggests ? [JSON.stringify(finding.suggests)] : [])));
  const findings: Finding[] = schemaFindings.filter((finding) => !(finding.missing && misspelt.has(JSON.stringify(finding.path))));
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
