import type { z } from "zod";
import type { PathSegment } from "./diagnostics.js";
import { closestMatch } from "./naming.js";
import { KNOWN_KEYS } from "./schema.js";
import type { Finding } from "./source.js";
import { FIELD_TYPES, PLANNED_AUTH_TYPES, plannedAuthTypeMessage } from "./vocabulary.js";

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

/** A short description of a value for messages: `a list`, `string "yes"`, `nothing`. */
export function describeValue(value: unknown): string {
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

const ENTITY_NAME_RULE = "use PascalCase: a capital letter, then letters and digits";
const IDENTIFIER_RULE = "use letters, digits and _, and do not start with a digit";

/** What kind of name sits at `path`, and the rule it must follow. */
function nameRuleAt(path: readonly PathSegment[]): { noun: string; rule: string } {
  const last = path.at(-1);
  const parent = path.at(-2);
  if (parent === "roles" || path.at(-3) === "permissions") return { noun: "role name", rule: IDENTIFIER_RULE };
  if (path.length === 1 && path[0] === "name")
    return { noun: "service name", rule: "use letters, digits, '.', '_' and '-', starting with a letter or digit" };
  if (last === "to" || (parent === "entities" && path.length === 2)) return { noun: "entity name", rule: ENTITY_NAME_RULE };
  if (parent === "fields") return { noun: "field name", rule: IDENTIFIER_RULE };
  return { noun: "value", rule: "invalid format" };
}

function isFieldPath(path: readonly PathSegment[]): boolean {
  return path.length === 4 && path[0] === "entities" && path[2] === "fields";
}

function expectedAt(path: readonly PathSegment[], expected: string): string {
  if (isFieldPath(path) && expected === "object") return `a field type (${FIELD_TYPES.join(", ")}) or a map`;
  return EXPECTED[expected] ?? expected;
}

function entityNamesOf(input: unknown): string[] {
  const entities = (input as { entities?: unknown } | undefined)?.entities;
  return typeof entities === "object" && entities !== null && !Array.isArray(entities) ? Object.keys(entities) : [];
}

function missingKey(path: readonly PathSegment[]): Finding {
  return { severity: "error", path, anchor: "parent", message: `missing required key '${String(path.at(-1))}'` };
}

/** Turns schema issues into findings with clear messages and "did you mean" hints. */
export function findingsFromIssues(issues: readonly z.core.$ZodIssue[], input: unknown): Finding[] {
  const findings: Finding[] = [];
  const missing: Finding[] = [];
  const suggestedKeys = new Set<string>();
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
          if (match) suggestedKeys.add(JSON.stringify([...path, match]));
          const hint = match ? ` (did you mean '${match}'?)` : keys.length > 0 ? ` (expected one of: ${keys.join(", ")})` : "";
          findings.push({ severity: "error", path: [...path, key], anchor: "key", message: `unknown ${noun} '${key}'${hint}` });
        }
        break;
      }
      case "invalid_type": {
        if (value === undefined) {
          missing.push(missingKey(path));
          break;
        }
        const listHint = issue.expected === "array" && typeof value === "string" ? ` (write [${value}])` : "";
        findings.push({
          severity: "error",
          path,
          message: `expected ${expectedAt(path, issue.expected)}, got ${describeValue(value)}${listHint}`,
        });
        break;
      }
      case "invalid_value": {
        if (value === undefined) {
          missing.push(missingKey(path));
          break;
        }
        if (path.join(".") === "auth.type" && (PLANNED_AUTH_TYPES as readonly string[]).includes(String(value))) {
          findings.push({
            severity: "error",
            path,
            message: plannedAuthTypeMessage(String(value)),
          });
          break;
        }
        const options = issue.values.map((option) => String(option));
        const match = typeof value === "string" ? closestMatch(value, options) : undefined;
        const hint = match ? ` (did you mean '${match}'?)` : "";
        findings.push({ severity: "error", path, message: `${describeValue(value)} is not one of ${options.join(", ")}${hint}` });
        break;
      }
      case "invalid_format": {
        const { noun, rule } = nameRuleAt(path);
        const match = path.at(-1) === "to" && typeof value === "string" ? closestMatch(value, entityNamesOf(input)) : undefined;
        const hint = match ? ` (did you mean '${match}'?)` : "";
        findings.push({ severity: "error", path, message: `'${String(value)}' is not a valid ${noun}: ${rule}${hint}` });
        break;
      }
      case "invalid_key": {
        const { noun, rule } = nameRuleAt(path);
        findings.push({ severity: "error", path, anchor: "key", message: `'${String(path.at(-1))}' is not a valid ${noun}: ${rule}` });
        break;
      }
      case "too_small":
        findings.push({ severity: "error", path, message: `must be at least ${String(issue.minimum)}, got ${describeValue(value)}` });
        break;
      case "too_big":
        findings.push({ severity: "error", path, message: `must be at most ${String(issue.maximum)}, got ${describeValue(value)}` });
        break;
      case "invalid_union":
        findings.push({ severity: "error", path, message: `expected a string, number or boolean, got ${describeValue(value)}` });
        break;
      default:
        findings.push({ severity: "error", path, message: issue.message });
    }
  }
  // A misspelt required key is reported once, as the unknown key with its "did you mean".
  return [...findings, ...missing.filter((finding) => !suggestedKeys.has(JSON.stringify(finding.path)))];
}
