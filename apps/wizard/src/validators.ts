import {
  closestMatch,
  IDENTIFIER,
  PLANNED_AUTH_TYPES,
  plannedAuthTypeMessage,
  SETUP_ROLE_AS_DEFAULT,
  setupRoleOf,
  undeclaredRoleMessage,
} from "@domain-auth/core/vocabulary";
import { isPresetProvider, neededKey, PRESET_PROVIDERS } from "./providers.js";

/** Splits a list as typed (`Admin, Editor Reader`) into names: commas or spaces between them. */
export function parseList(text: string): string[] {
  return text.split(/[\s,]+/).filter((name) => name.length > 0);
}

/** Splits a role list as typed (`Admin, Editor Reader`) into names. */
export function parseRoleList(text: string): string[] {
  return parseList(text);
}

/** Checks a typed role list: every name an identifier, none twice. */
export function validateRoleList(text: string | undefined): string | undefined {
  const roles = parseRoleList(text ?? "");
  const invalid = roles.find((role) => !IDENTIFIER.test(role));
  if (invalid !== undefined) return `'${invalid}' is not a valid role name: use letters, digits and _, not starting with a digit`;
  const twice = roles.find((role, index) => roles.indexOf(role) !== index);
  if (twice !== undefined) return `'${twice}' is listed twice`;
  return undefined;
}

/** Checks that a role list keeps every role the entities' permissions use. */
export function validateRolesCoverPermissions(roles: readonly string[], usedRoles: readonly string[]): string | undefined {
  const missing = usedRoles.filter((role) => !roles.includes(role));
  if (missing.length === 0) return undefined;
  const names = missing.map((role) => `'${role}'`).join(", ");
  return `${names} ${missing.length === 1 ? "is" : "are"} used in permissions; keep ${missing.length === 1 ? "it" : "them"} in the list`;
}

/**
 * Checks a typed provider list (`google, github`): each a preset the wizard can declare, none twice.
 * @example validateProviderList("gogle") // "'gogle' is not a provider the wizard adds (did you mean 'google'?); use …"
 */
export function validateProviderList(text: string): string | undefined {
  const names = parseList(text);
  const allowed = `use ${PRESET_PROVIDERS.join(", ")}, or "" for none`;
  const unknown = names.find((name) => !isPresetProvider(name));
  const needs = unknown === undefined ? undefined : neededKey(unknown);
  if (needs)
    return `'${unknown}' needs ${needs}, which only domain.yaml can say: declare it under auth.providers (docs/providers.md); ${allowed}`;
  if (unknown !== undefined) {
    const match = closestMatch(unknown, PRESET_PROVIDERS);
    return `'${unknown}' is not a provider the wizard adds${match ? ` (did you mean '${match}'?)` : ""}; ${allowed}`;
  }
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  return twice === undefined ? undefined : `'${twice}' is listed twice`;
}

/** Checks an auth type given as a flag. */
export function validateAuthType(value: string): string | undefined {
  if (value === "jwt" || value === "none") return undefined;
  if ((PLANNED_AUTH_TYPES as readonly string[]).includes(value)) return plannedAuthTypeMessage(value);
  return `--type must be jwt or none, not '${value}'`;
}

/** Checks the role register gives: `""` (none) or a declared role other than the setup role. */
export function validateDefaultRole(role: string, roles: readonly string[]): string | undefined {
  if (role === "") return undefined;
  if (!roles.includes(role)) return `'${role}' is not one of the roles (${roles.length > 0 ? roles.join(", ") : "none declared"})`;
  if (role === setupRoleOf(roles)) return `'${role}' ${SETUP_ROLE_AS_DEFAULT}`;
  return undefined;
}

/** Checks the roles that must use a second factor: each one declared (the message `validate` gives). */
export function validateMfaRequired(required: readonly string[], roles: readonly string[]): string | undefined {
  const undeclared = required.find((role) => !roles.includes(role));
  return undeclared === undefined ? undefined : undeclaredRoleMessage(undeclared, roles);
}

/** Checks an entity name against the entities of the file. */
export function validateEntityChoice(name: string, entities: readonly string[]): string | undefined {
  if (entities.includes(name)) return undefined;
  return `'${name}' is not an entity of domain.yaml (entities: ${entities.length > 0 ? entities.join(", ") : "none"})`;
}

/** A diagnostic of `validateDomainText`, as far as the wizard reads it. */
interface DomainProblem {
  readonly severity: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * The errors of a `domain.yaml` no answer of the wizard can fix, found before any question: the
 * answers rewrite the `auth` block, the roles (which role references depend on), the auth entity
 * (whose fields its rules check) and its role's default, so errors about those wait for the result.
 */
export function errorsBeyondAnswers<T extends DomainProblem>(diagnostics: readonly T[]): T[] {
  return diagnostics.filter(
    (diagnostic) => diagnostic.severity === "error" && diagnostic.path[0] !== "auth" && !/\bauth\b|\broles?\b/i.test(diagnostic.message),
  );
}
