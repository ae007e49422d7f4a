import type { z } from "zod";
import type { PathSegment } from "./diagnostics.js";
import { isRecord } from "./loose-data.js";
import { closestMatch, didYouMean } from "./naming.js";
import { KNOWN_KEYS } from "./schema.js";
import type { Finding } from "./source.js";
import { FIELD_TYPES, PLANNED_AUTH_TYPES, plannedAuthTypeMessage } from "./vocabulary.js";

function knownKeysAt(path: readonly PathSegment[]): { keys: readonly string[]; noun: string } {
  const [first, , third, , fifth] = path;
  if (path.length === 0) return { keys: KNOWN_KEYS.root, noun: "key" };
  if (first === "auth" && path.length === 1) return { keys: KNOWN_KEYS.auth, noun: "key" };
  if (first === "auth" && path[1] === "mfa") return { keys: KNOWN_KEYS.mfa, noun: "key" };
  if (first === "auth" && path[1] === "providers") return { keys: KNOWN_KEYS.provider, noun: "key" };
  if (first === "auth" && path[1] === "organizations") return { keys: KNOWN_KEYS.organizations, noun: "key" };
  if (first === "auth") return { keys: KNOWN_KEYS.endpoints, noun: "endpoint" };
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
  return isRecord(entities) ? Object.keys(entities) : [];
}

/** A finding of one issue; a missing key and a key that "did you mean" suggests are marked. */
type IssueFinding = Finding & { readonly missing?: true; readonly suggests?: string };

function missingKey(path: readonly PathSegment[]): IssueFinding {
  return { severity: "error", path, anchor: "parent", message: `missing required key '${String(path.at(-1))}'`, missing: true };
}

function unknownKeys(unrecognized: readonly string[], path: readonly PathSegment[]): IssueFinding[] {
  const { keys, noun } = knownKeysAt(path);
  return unrecognized.map((key) => {
    const match = closestMatch(key, keys);
    const hint = match ? ` (did you mean '${match}'?)` : keys.length > 0 ? ` (expected one of: ${keys.join(", ")})` : "";
    const finding: IssueFinding = { severity: "error", path: [...path, key], anchor: "key", message: `unknown ${noun} '${key}'${hint}` };
    return match ? { ...finding, suggests: JSON.stringify([...path, match]) } : finding;
  });
}

function wrongType(expected: string, path: readonly PathSegment[], value: unknown): IssueFinding {
  if (value === undefined) return missingKey(path);
  const listHint = expected === "array" && typeof value === "string" ? ` (write [${value}])` : "";
  return { severity: "error", path, message: `expected ${expectedAt(path, expected)}, got ${describeValue(value)}${listHint}` };
}

function wrongValue(values: readonly unknown[], path: readonly PathSegment[], value: unknown): IssueFinding {
  if (value === undefined) return missingKey(path);
  if (path.join(".") === "auth.type" && (PLANNED_AUTH_TYPES as readonly string[]).includes(String(value))) {
    return { severity: "error", path, message: plannedAuthTypeMessage(String(value)) };
  }
  const options = values.map((option) => String(option));
  const hint = typeof value === "string" ? didYouMean(value, options) : "";
  return { severity: "error", path, message: `${describeValue(value)} is not one of ${options.join(", ")}${hint}` };
}

function badName(path: readonly PathSegment[], value: unknown, input: unknown): IssueFinding {
  const { noun, rule } = nameRuleAt(path);
  const hint = path.at(-1) === "to" && typeof value === "string" ? didYouMean(value, entityNamesOf(input)) : "";
  return { severity: "error", path, message: `'${String(value)}' is not a valid ${noun}: ${rule}${hint}` };
}

function findingsOfIssue(issue: z.core.$ZodIssue, input: unknown): IssueFinding[] {
  const path = issue.path as PathSegment[];
  const value = path.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], input);
  switch (issue.code) {
    case "unrecognized_keys":
      return unknownKeys(issue.keys, path);
    case "invalid_type":
      return [wrongType(issue.expected, path, value)];
    case "invalid_value":
      return [wrongValue(issue.values, path, value)];
    case "invalid_format":
      return [badName(path, value, input)];
    case "invalid_key": {
      const { noun, rule } = nameRuleAt(path);
      return [{ severity: "error", path, anchor: "key", message: `'${String(path.at(-1))}' is not a valid ${noun}: ${rule}` }];
    }
    case "too_small":
      return [{ severity: "error", path, message: `must be at least ${String(issue.minimum)}, got ${describeValue(value)}` }];
    case "too_big":
      return [{ severity: "error", path, message: `must be at most ${String(issue.maximum)}, got ${describeValue(value)}` }];
    case "invalid_union":
      return [{ severity: "error", path, message: `expected a string, number or boolean, got ${describeValue(value)}` }];
    default:
      return [{ severity: "error", path, message: issue.message }];
  }
}

/** Turns schema issues into findings with clear messages and "did you mean" hints. */
export function findingsFromIssues(issues: readonly z.core.$ZodIssue[], input: unknown): Finding[] {
  const found = issues.flatMap((issue) => findingsOfIssue(issue, input));
  const suggested = new Set(found.flatMap((finding) => (finding.suggests ? [finding.suggests] : [])));
  // A misspelt required key is reported once, as the unknown key with its "did you mean".
  const missing = found.filter((finding) => finding.missing && !suggested.has(JSON.stringify(finding.path)));
  return [...found.filter((finding) => !finding.missing), ...missing].map(({ missing: _, suggests: __, ...finding }) => finding);
}
