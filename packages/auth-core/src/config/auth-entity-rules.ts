import { asRecord, fieldOf, type Loose } from "./loose-data.js";
import { didYouMean } from "./naming.js";
import type { EntityScope } from "./rule-context.js";
import type { Finding } from "./source.js";
import { CREDENTIAL_FIELDS, credentialEntityNames } from "./vocabulary.js";

/** The auth entity's name (when found) and the problems of finding it. */
export interface AuthEntitySearch {
  readonly name?: string;
  readonly findings: Finding[];
}

function hasField(entities: Loose, entityName: string, key: string): boolean {
  return fieldOf(asRecord(entities[entityName]), key) !== undefined;
}

function entityList(names: readonly string[]): string {
  return names.length > 0 ? ` (entities: ${names.join(", ")})` : "";
}

function describeNoCandidate(entities: Loose): string {
  const partial = Object.keys(entities).flatMap((name) => {
    const has = (key: string) => hasField(entities, name, key);
    if (has("email") && !has("password")) return [`${name} has 'email' but no 'password'`];
    if (has("password") && !has("email")) return [`${name} has 'password' but no 'email'`];
    return [];
  });
  const detail = partial.length > 0 ? ` (${partial.join("; ")})` : entityList(Object.keys(entities));
  return `no entity has both 'email' and 'password' fields${detail}; add them to the user entity or set auth.entity`;
}

/** `auth.entity` as given: it must name an entity (rule 2) that has the credential fields (rule 3). */
function namedAuthEntity(entities: Loose, name: string): AuthEntitySearch {
  const names = Object.keys(entities);
  if (!names.includes(name)) {
    const known = didYouMean(name, names) || entityList(names);
    return { findings: [{ severity: "error", path: ["auth", "entity"], message: `auth.entity '${name}' is not an entity${known}` }] };
  }
  const missing = CREDENTIAL_FIELDS.filter((key) => !hasField(entities, name, key));
  const findings: Finding[] = missing.map((key) => ({
    severity: "error",
    path: ["entities", name, "fields", key],
    anchor: "parent",
    message: `the auth entity '${name}' needs a '${key}' field`,
  }));
  return { name, findings };
}

/** Without `auth.entity`: exactly one entity may have both credential fields (rule 3). */
function detectedAuthEntity(entities: Loose): AuthEntitySearch {
  const candidates = credentialEntityNames(
    Object.keys(entities).map((name) => ({ name, fields: CREDENTIAL_FIELDS.filter((key) => hasField(entities, name, key)) })),
  );
  if (candidates.length === 1) return { name: candidates[0], findings: [] };
  const message =
    candidates.length === 0
      ? describeNoCandidate(entities)
      : `several entities have both 'email' and 'password' fields (${candidates.join(", ")}); set auth.entity to one of them`;
  return { findings: [{ severity: "error", path: ["auth", "entity"], anchor: "parent", message }] };
}

/** The auth entity's name, given or detected, with the problems of finding it. */
export function findAuthEntity(entities: Loose, auth: Loose): AuthEntitySearch {
  return typeof auth.entity === "string" ? namedAuthEntity(entities, auth.entity) : detectedAuthEntity(entities);
}

/** The auth entity's `email` and `password`, when declared, must be string fields. */
export function checkCredentialTypes(scope: EntityScope): Finding[] {
  return CREDENTIAL_FIELDS.flatMap((key): Finding[] => {
    const declared = fieldOf(scope.entity, key);
    if (!declared || declared.type === "string") return [];
    return [
      { severity: "error", path: [...scope.path, "fields", key, "type"], message: `the auth entity's '${key}' must be a string field` },
    ];
  });
}
