import type { Loose } from "./loose-data.js";
import type { Finding } from "./source.js";

const TEXTUAL = new Set(["string", "text"]);
const NUMERIC = new Set(["integer", "number"]);

function defaultProblem(field: Loose): string | undefined {
  const value = field.default;
  switch (field.type) {
    case "string":
    case "text":
      if (typeof value !== "string") return "must be a string";
      if (typeof field.maxLength === "number" && [...value].length > field.maxLength) return `is longer than maxLength ${field.maxLength}`;
      return undefined;
    case "integer":
    case "number":
      if (typeof value !== "number" || (field.type === "integer" && !Number.isInteger(value)))
        return `must be ${field.type === "integer" ? "a whole number" : "a number"}`;
      if (typeof field.min === "number" && value < field.min) return `is below min ${field.min}`;
      if (typeof field.max === "number" && value > field.max) return `is above max ${field.max}`;
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "datetime":
      return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? undefined : "must be an ISO 8601 date and time";
    case "ref":
      return "is not allowed on a ref field";
    case "enum":
      return Array.isArray(field.values) && field.values.includes(value as string)
        ? undefined
        : `must be one of its values (${Array.isArray(field.values) ? field.values.join(", ") : "none"})`;
    default:
      return undefined;
  }
}

/** Checks that a field's options fit its type (docs/domain-yaml.md#entities). */
export function checkFieldOptions(field: Loose, path: readonly (string | number)[]): Finding[] {
  const findings: Finding[] = [];
  const type = String(field.type);
  const misplaced = (key: string, applies: string) => {
    if (field[key] !== undefined) {
      findings.push({
        severity: "error",
        path: [...path, key],
        anchor: "key",
        message: `${key} applies only to ${applies} fields, not ${type}`,
      });
    }
  };
  if (!TEXTUAL.has(type)) misplaced("maxLength", "string and text");
  if (!NUMERIC.has(type)) {
    misplaced("min", "integer and number");
    misplaced("max", "integer and number");
  }
  if (type !== "ref") misplaced("to", "ref");
  if (type !== "enum") misplaced("values", "enum");
  if (type === "enum") findings.push(...enumValuesFindings(field.values, path));
  if (type === "ref" && field.to === undefined) {
    findings.push({ severity: "error", path: [...path, "to"], anchor: "parent", message: "a ref field needs 'to: <Entity>'" });
  }
  if (typeof field.min === "number" && typeof field.max === "number" && field.min > field.max) {
    findings.push({ severity: "error", path: [...path, "min"], message: `min ${field.min} is greater than max ${field.max}` });
  }
  if (field.default !== undefined) {
    const problem = defaultProblem(field);
    if (problem) findings.push({ severity: "error", path: [...path, "default"], message: `default ${problem}` });
  }
  return findings;
}

/** The most values an enum field may list. */
const MAX_ENUM_VALUES = 100;

/** An enum field's `values`: a list of 1 to 100 distinct, non-empty strings of at most 100 characters. */
function enumValuesFindings(values: unknown, path: readonly (string | number)[]): Finding[] {
  if (values === undefined) {
    return [{ severity: "error", path: [...path, "values"], anchor: "parent", message: "an enum field needs 'values: [a, b, …]'" }];
  }
  if (!Array.isArray(values) || values.length === 0 || values.length > MAX_ENUM_VALUES) {
    return [{ severity: "error", path: [...path, "values"], message: `values must list 1 to ${MAX_ENUM_VALUES} strings` }];
  }
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const [index, value] of values.entries()) {
    const problem =
      typeof value !== "string" || value.length === 0 || value.length > 100 || value.includes("\u0000")
        ? "must be a non-empty string of at most 100 characters"
        : seen.has(value)
          ? `repeats '${value}'`
          : undefined;
    if (problem) findings.push({ severity: "error", path: [...path, "values", index], message: `value ${problem}` });
    if (typeof value === "string") seen.add(value);
  }
  return findings;
}
