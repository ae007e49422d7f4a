import { readFile } from "node:fs/promises";
import { type Diagnostic, DomainConfigError, sortDiagnostics } from "./diagnostics.js";
import { checkDomainRules } from "./domain-rules.js";
import { checkFieldOptions } from "./field-rules.js";
import { findingsFromIssues } from "./issues.js";
import { isRecord } from "./loose-data.js";
import type { DomainModel } from "./model.js";
import { resolveDomain } from "./resolve.js";
import { normalizedDomainSchema } from "./schema.js";
import { type Finding, parseYamlSource } from "./source.js";

/** The outcome of validating a `domain.yaml` text. */
export interface DomainValidation {
  /** The resolved model, or `null` when there is any error. */
  readonly model: DomainModel | null;
  /** Errors and warnings, in source order. */
  readonly diagnostics: readonly Diagnostic[];
  readonly errorCount: number;
  readonly warningCount: number;
}

/** Expands shorthand fields (`name: string`) to `{ type: string }`, leaving the input untouched. */
function expandShorthand(data: unknown): unknown {
  if (!isRecord(data) || !isRecord(data.entities)) return data;
  const entities = Object.fromEntries(
    Object.entries(data.entities).map(([name, entity]) => {
      if (!isRecord(entity) || !isRecord(entity.fields)) return [name, entity];
      const fields = Object.fromEntries(
        Object.entries(entity.fields).map(([field, value]) => [field, typeof value === "string" ? { type: value } : value]),
      );
      return [name, { ...entity, fields }];
    }),
  );
  return { ...data, entities };
}

function fieldFindings(data: unknown): Finding[] {
  if (!isRecord(data) || !isRecord(data.entities)) return [];
  return Object.entries(data.entities).flatMap(([entityName, entity]) =>
    isRecord(entity) && isRecord(entity.fields)
      ? Object.entries(entity.fields).flatMap(([fieldName, field]) =>
          isRecord(field) ? checkFieldOptions(field, ["entities", entityName, "fields", fieldName]) : [],
        )
      : [],
  );
}

/**
 * Validates a `domain.yaml` text: every problem at once, each with its position.
 *
 * @example
 * const { model, diagnostics } = validateDomainText(text);
 */
export function validateDomainText(text: string): DomainValidation {
  const source = parseYamlSource(text);
  const diagnostics: Diagnostic[] = [...source.diagnostics];
  let model: DomainModel | null = null;

  if (source.parsed) {
    const data = expandShorthand(source.data ?? {});
    const parsed = normalizedDomainSchema.safeParse(data);
    const findings = [
      ...(parsed.success ? [] : findingsFromIssues(parsed.error.issues, data)),
      ...(isRecord(data) ? checkDomainRules(data) : []),
      ...fieldFindings(data),
    ];
    diagnostics.push(...findings.map(source.place));
    if (parsed.success && !diagnostics.some((diagnostic) => diagnostic.severity === "error")) {
      model = resolveDomain(parsed.data);
    }
  }

  const sorted = sortDiagnostics(diagnostics);
  const errorCount = sorted.filter((d) => d.severity === "error").length;
  return { model, diagnostics: sorted, errorCount, warningCount: sorted.length - errorCount };
}

/**
 * Reads and validates a `domain.yaml` file, returning the resolved model.
 *
 * @throws {DomainConfigError} when the file cannot be read or has errors.
 */
export async function loadDomain(file: string): Promise<DomainModel> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : `cannot read file (${(cause as Error).message})`;
    throw new DomainConfigError(file, [{ severity: "error", path: [], message: reason, line: 1, column: 1 }]);
  }
  const { model, diagnostics } = validateDomainText(text);
  if (!model) throw new DomainConfigError(file, diagnostics);
  return model;
}
