import { closestMatch, ENTITY_NAME, IDENTIFIER, toSegment, toTableName } from "./naming.js";
import type { Finding } from "./source.js";
import { CREDENTIAL_FIELDS, OPERATIONS, SETUP_ROLE_AS_DEFAULT, setupRoleOf } from "./vocabulary.js";

type Loose = Record<string, unknown>;

const KNOWN_TOKENS = new Set(["*", "@Owner", "@Authenticated"]);
const RESERVED_FIELDS = new Set(["id", "createdAt", "updatedAt"]);
const RESERVED_AUTH_FIELDS = new Set(["passwordHash", "tokenVersion"]);
const RESERVED_TABLE_PREFIX = "domain_auth_";

function record(value: unknown): Loose | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function field(entity: Loose | undefined, name: string): Loose | undefined {
  return record(record(entity?.fields)?.[name]);
}

function didYouMean(word: string, candidates: readonly string[]): string {
  const match = closestMatch(word, candidates);
  return match ? ` (did you mean '${match}'?)` : "";
}

function describeNoCandidate(entities: Loose): string {
  const partial = Object.keys(entities).flatMap((name) => {
    const has = (key: string) => field(record(entities[name]), key) !== undefined;
    if (has("email") && !has("password")) return [`${name} has 'email' but no 'password'`];
    if (has("password") && !has("email")) return [`${name} has 'password' but no 'email'`];
    return [];
  });
  const names = Object.keys(entities);
  const detail = partial.length > 0 ? ` (${partial.join("; ")})` : names.length > 0 ? ` (entities: ${names.join(", ")})` : "";
  return `no entity has both 'email' and 'password' fields${detail}; add them to the user entity or set auth.entity`;
}

/** The auth entity's name, given or detected, with the problems of finding it. */
export function findAuthEntity(entities: Loose, auth: Loose): { name?: string; findings: Finding[] } {
  const names = Object.keys(entities);
  const hasCredentials = (name: string) =>
    field(record(entities[name]), "email") !== undefined && field(record(entities[name]), "password") !== undefined;

  if (typeof auth.entity === "string") {
    if (!names.includes(auth.entity)) {
      const known = didYouMean(auth.entity, names) || (names.length > 0 ? ` (entities: ${names.join(", ")})` : "");
      return {
        findings: [{ severity: "error", path: ["auth", "entity"], message: `auth.entity '${auth.entity}' is not an entity${known}` }],
      };
    }
    const missing = CREDENTIAL_FIELDS.filter((key) => field(record(entities[auth.entity as string]), key) === undefined);
    const findings: Finding[] = missing.map((key) => ({
      severity: "error",
      path: ["entities", auth.entity as string, "fields", key],
      anchor: "parent",
      message: `the auth entity '${auth.entity}' needs a '${key}' field`,
    }));
    return { name: auth.entity, findings };
  }

  const candidates = names.filter(hasCredentials);
  if (candidates.length === 1) return { name: candidates[0], findings: [] };
  const message =
    candidates.length === 0
      ? describeNoCandidate(entities)
      : `several entities have both 'email' and 'password' fields (${candidates.join(", ")}); set auth.entity to one of them`;
  return { findings: [{ severity: "error", path: ["auth", "entity"], anchor: "parent", message }] };
}

/**
 * The cross-reference rules of `domain.yaml` (CONTRACT 1.3), checked on data whose shape may
 * still be wrong in places: whatever is malformed is skipped here (the schema reports it).
 */
export function checkDomainRules(data: Loose): Finding[] {
  const findings: Finding[] = [];
  const entities = record(data.entities) ?? {};
  const auth = record(data.auth) ?? {};
  const jwt = auth.type === "jwt";
  const none = auth.type === "none";
  const roles = strings(auth.roles);
  const entityNames = Object.keys(entities);

  const seenRoles = new Set<string>();
  roles.forEach((role, index) => {
    if (seenRoles.has(role)) {
      findings.push({ severity: "error", path: ["auth", "roles", index], message: `role '${role}' is declared twice` });
    }
    seenRoles.add(role);
  });

  const authEntity = jwt ? findAuthEntity(entities, auth) : { findings: [] };
  findings.push(...authEntity.findings);
  const setupRole = setupRoleOf(roles);

  const segments = new Map<string, string>();
  for (const [entityName, rawEntity] of Object.entries(entities)) {
    const entity = record(rawEntity);
    if (!entity) continue;
    const base = ["entities", entityName];
    const isAuthEntity = authEntity.name === entityName;
    const fields = record(entity.fields) ?? {};

    const segment = toSegment(entityName);
    const clash = segments.get(segment);
    if (clash) {
      findings.push({
        severity: "error",
        path: base,
        anchor: "key",
        message: `entities '${clash}' and '${entityName}' share the URL segment '${segment}'`,
      });
    }
    segments.set(segment, entityName);
    if (toTableName(entityName).startsWith(RESERVED_TABLE_PREFIX)) {
      findings.push({ severity: "error", path: base, anchor: "key", message: `entity names starting with 'DomainAuth' are reserved` });
    }

    for (const [fieldName, rawField] of Object.entries(fields)) {
      const path = [...base, "fields", fieldName];
      if (RESERVED_FIELDS.has(fieldName) || (isAuthEntity && RESERVED_AUTH_FIELDS.has(fieldName))) {
        findings.push({
          severity: "error",
          path,
          anchor: "key",
          message: `'${fieldName}' is managed by the service and cannot be declared`,
        });
      }
      const declaration = record(rawField);
      const target = declaration?.to;
      if (declaration?.type === "ref" && typeof target === "string" && ENTITY_NAME.test(target) && !entityNames.includes(target)) {
        findings.push({
          severity: "error",
          path: [...path, "to"],
          message: `ref to unknown entity '${target}'${didYouMean(target, entityNames)}`,
        });
      }
      if (none && fieldName === "password") {
        findings.push({
          severity: "warning",
          path,
          anchor: "key",
          message: "with auth.type none a 'password' field is stored as plain data and never returned",
        });
      }
    }

    if (isAuthEntity) {
      for (const key of ["email", "password"]) {
        const declared = field(entity, key);
        if (declared && declared.type !== "string") {
          findings.push({
            severity: "error",
            path: [...base, "fields", key, "type"],
            message: `the auth entity's '${key}' must be a string field`,
          });
        }
      }
      const role = field(entity, "role");
      if (role && role.type !== "string") {
        findings.push({
          severity: "error",
          path: [...base, "fields", "role", "type"],
          message: "the auth entity's 'role' must be a string field",
        });
      }
      if (role && typeof role.default === "string") {
        const path = [...base, "fields", "role", "default"];
        if (!roles.includes(role.default)) {
          findings.push({
            severity: "error",
            path,
            message: `default role '${role.default}' is not declared in auth.roles${didYouMean(role.default, roles)}`,
          });
        } else if (role.default === setupRole) {
          findings.push({
            severity: "error",
            path,
            message: `default role '${role.default}' ${SETUP_ROLE_AS_DEFAULT}`,
          });
        }
      }
    }

    const permissions = record(entity.permissions);
    const usesOwner = OPERATIONS.some((operation) => strings(permissions?.[operation]).includes("@Owner"));
    if (typeof entity.owner === "string") {
      const owner = field(entity, entity.owner);
      const path = [...base, "owner"];
      if (isAuthEntity) {
        findings.push({
          severity: "error",
          path,
          message: "the auth entity cannot have an owner: @Owner on it means the record is the caller",
        });
      } else if (!owner) {
        findings.push({ severity: "error", path, message: `owner '${entity.owner}' is not a field of ${entityName}` });
      } else if (owner.type !== "ref" || (jwt && authEntity.name && owner.to !== authEntity.name)) {
        const target = authEntity.name ?? "the auth entity";
        findings.push({ severity: "error", path, message: `owner '${entity.owner}' must be a ref field to ${target}` });
      }
    } else if (usesOwner && !isAuthEntity && fields.ownerId !== undefined) {
      findings.push({
        severity: "error",
        path: [...base, "fields", "ownerId"],
        anchor: "key",
        message: "'ownerId' is reserved for the hidden owner field; name it in owner: instead",
      });
    }

    if (permissions && none) {
      findings.push({
        severity: "warning",
        path: [...base, "permissions"],
        anchor: "key",
        message: "auth.type is none: permissions are not enforced and every operation is open",
      });
    }
    for (const operation of OPERATIONS) {
      const list = permissions?.[operation];
      if (!Array.isArray(list)) continue;
      list.forEach((item, index) => {
        const path = [...base, "permissions", operation, index];
        if (typeof item !== "string") return;
        if (item.startsWith("@")) {
          if (!KNOWN_TOKENS.has(item)) {
            findings.push({ severity: "warning", path, message: `unknown token '${item}' grants nothing (known: @Owner, @Authenticated)` });
          } else if (item === "@Owner" && operation === "create" && isAuthEntity) {
            findings.push({
              severity: "error",
              path,
              message: "@Owner cannot grant create on the auth entity: the record does not exist yet",
            });
          }
        } else if (item !== "*" && !roles.includes(item)) {
          const validRoles = [...new Set(roles.filter((role) => IDENTIFIER.test(role)))];
          const hint = didYouMean(item, validRoles) || (validRoles.length > 0 ? ` (declared: ${validRoles.join(", ")})` : "");
          findings.push({ severity: "error", path, message: `role '${item}' is not declared in auth.roles${hint}` });
        }
      });
    }
  }
  return findings;
}
