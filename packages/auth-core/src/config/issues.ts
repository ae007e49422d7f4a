import type { z } from "zod";
import type { PathSegment } from "./diagnostics.js";
import { closestMatch } from "./naming.js";
import { KNOWN_KEYS, PLANNED_AUTH_TYPES } from "./schema.js";
import type { Finding } from "./source.js";

function knownKeysAt(path: readonly PathSegment[]): { keys: readonly string[]; noun: string } {
  const [first, , third, , fifth] = path;
  if (path.length === 0) return { keys: KNOWN_KEYS.root, noun: "key" };
  if (first === "auth")
    return path.length === 1 ? { keys: KNOWN_KEYS.auth, noun: "key" } : { keys: KNOWN_KEYS.endpoints, noun: "endpoint" };
  if (first === "entities" && path.length === 2) return { keys: KNOWN_KEYS.entity, noun: "key" };
  if (first === "entities" && third === "permissions") return { keys: KNOWN_KEYS.permissions, noun: "operation" };
  if (first === "entities" && third === "fields" && fifth === undefined) return { keys: KNOWN_KEYS.field, noun: "field option" };
  return { keys: [], noun: "key" };
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  return `${typeof value} ${JSON.stringify(value)}`;
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  boolean: "true or false",
  number: "a number",
  int: "a whole number",
  array: "a list",
  object: "a map",
  record: "a map",
};

function formatHint(path: readonly PathSegment[]): string {
  const last = path.at(-1);
  const parent = path.at(-2);
  if (parent === "roles" || path.at(-3) === "permissions") return "role names use letters, digits and _, and do not start with a digit";
  if (path[0] === "name") return "use letters, digits, '.', '_' and '-'";
  if (last === "to" || parent === "entities") return "entity names are PascalCase: a capital letter, then letters and digits";
  if (parent === "fields") return "field names use letters, digits and _, and do not start with a digit";
  return "invalid format";
}

/** Turns schema issues into findings with clear messages and "did you mean" hints. */
export function findingsFromIssues(issues: readonly z.core.$ZodIssue[], input: unknown): Finding[] {
  const findings: Finding[] = [];
  const valueAt = (path: readonly PathSegment[]) =>
    path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], input);

  for (const issue of issues) {
    const path = issue.path as PathSegment[];
    const value = valueAt(path);
    switch (issue.code) {
      case "unrecognized_keys": {
        const { keys, noun } = knownKeysAt(path);
        for (const key of issue.keys) {
          const match = closestMatch(key, keys);
          const hint = match ? ` (did you mean '${match}'?)` : keys.length > 0 ? ` (expected one of: ${keys.join(", ")})` : "";
          findings.push({ severity: "error", path: [...path, key], anchor: "key", message: `unknown ${noun} '${key}'${hint}` });
        }
        break;
      }
      case "invalid_type": {
        if (value === undefined) {
          findings.push({ severity: "error", path, anchor: "parent", message: `missing required key '${String(path.at(-1))}'` });
        } else {
          const expected = EXPECTED[issue.expected] ?? issue.expected;
          findings.push({ severity: "error", path, message: `expected ${expected}, got ${describeValue(value)}` });
        }
        break;
      }
      case "invalid_value": {
        if (path.join(".") === "auth.type" && (PLANNED_AUTH_TYPES as readonly string[]).includes(String(value))) {
          findings.push({
            severity: "error",
            path,
            message: `auth.type '${String(value)}' is planned but not implemented; use jwt or none`,
          });
          break;
        }
        const options = issue.values.map((option) => String(option));
        const match = typeof value === "string" ? closestMatch(value, options) : undefined;
        const hint = match ? ` (did you mean '${match}'?)` : "";
        findings.push({ severity: "error", path, message: `${describeValue(value)} is not one of ${options.join(", ")}${hint}` });
        break;
      }
      case "invalid_format":
        findings.push({ severity: "error", path, message: `${describeValue(value)} is not valid: ${formatHint(path)}` });
        break;
      case "invalid_key":
        findings.push({
          severity: "error",
          path,
          anchor: "key",
          message: `'${String(path.at(-1))}' is not a valid name: ${formatHint(path)}`,
        });
        break;
      case "invalid_union":
        findings.push({ severity: "error", path, message: `expected a string, number or boolean, got ${describeValue(value)}` });
        break;
      default:
        findings.push({ severity: "error", path, message: issue.message });
    }
  }
  return findings;
}
