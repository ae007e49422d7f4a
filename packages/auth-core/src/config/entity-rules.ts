import { asRecord, fieldOf } from "./loose-data.js";
import { didYouMean, ENTITY_NAME, toSegment, toTableName } from "./naming.js";
import { grantsOwner } from "./permission-rules.js";
import type { DomainScope, EntityScope } from "./rule-context.js";
import type { Finding } from "./source.js";

const RESERVED_FIELDS = new Set(["id", "createdAt", "updatedAt"]);
const RESERVED_AUTH_FIELDS = new Set(["passwordHash", "tokenVersion", "emailVerified", "everVerified"]);
const RESERVED_TABLE_PREFIX = "domain_auth_";

/**
 * An entity's name: no two entities may share a URL segment, and names that would make a
 * `domain_auth_` table are reserved. `segments` collects the segments of the entities seen so far.
 */
export function checkEntityName(scope: EntityScope, segments: Map<string, string>): Finding[] {
  const findings: Finding[] = [];
  const { name, path } = scope;
  const segment = toSegment(name);
  const clash = segments.get(segment);
  if (clash) {
    findings.push({
      severity: "error",
      path,
      anchor: "key",
      message: `entities '${clash}' and '${name}' share the URL segment '${segment}'`,
    });
  }
  segments.set(segment, name);
  if (toTableName(name).startsWith(RESERVED_TABLE_PREFIX)) {
    findings.push({ severity: "error", path, anchor: "key", message: `entity names starting with 'DomainAuth' are reserved` });
  }
  return findings;
}

/** One field: not a name the service manages, a ref to a known entity, no `password` under `auth.type: none`. */
function checkField(domain: DomainScope, scope: EntityScope, [fieldName, rawField]: [string, unknown]): Finding[] {
  const findings: Finding[] = [];
  const path = [...scope.path, "fields", fieldName];
  if (RESERVED_FIELDS.has(fieldName) || (scope.isAuthEntity && RESERVED_AUTH_FIELDS.has(fieldName))) {
    findings.push({ severity: "error", path, anchor: "key", message: `'${fieldName}' is managed by the service and cannot be declared` });
  }
  const declaration = asRecord(rawField);
  const target = declaration?.to;
  if (declaration?.type === "ref" && typeof target === "string" && ENTITY_NAME.test(target) && !domain.entityNames.includes(target)) {
    const hint = didYouMean(target, domain.entityNames);
    findings.push({ severity: "error", path: [...path, "to"], message: `ref to unknown entity '${target}'${hint}` });
  }
  if (domain.authType === "none" && fieldName === "password") {
    const message = "with auth.type none a 'password' field is stored as plain data and never returned";
    findings.push({ severity: "warning", path, anchor: "key", message });
  }
  return findings;
}

/** Every declared field of an entity, in order (see `checkField`). */
export function checkFields(domain: DomainScope, scope: EntityScope): Finding[] {
  return Object.entries(scope.fields).flatMap((entry) => checkField(domain, scope, entry));
}

/**
 * `owner:` names a ref field to the auth entity, and never on the auth entity itself; without
 * `owner:`, an entity that grants `@Owner` cannot declare `ownerId` (the hidden owner field).
 */
export function checkOwner(domain: DomainScope, scope: EntityScope): Finding[] {
  const { entity, isAuthEntity } = scope;
  const path = [...scope.path, "owner"];
  if (typeof entity.owner !== "string") {
    if (!grantsOwner(asRecord(entity.permissions)) || isAuthEntity || scope.fields.ownerId === undefined) return [];
    const message = "'ownerId' is reserved for the hidden owner field; name it in owner: instead";
    return [{ severity: "error", path: [...scope.path, "fields", "ownerId"], anchor: "key", message }];
  }
  const owner = fieldOf(entity, entity.owner);
  if (isAuthEntity) {
    return [{ severity: "error", path, message: "the auth entity cannot have an owner: @Owner on it means the record is the caller" }];
  }
  if (!owner) return [{ severity: "error", path, message: `owner '${entity.owner}' is not a field of ${scope.name}` }];
  if (owner.type !== "ref" || (domain.authType === "jwt" && domain.authEntity && owner.to !== domain.authEntity)) {
    const target = domain.authEntity ?? "the auth entity";
    return [{ severity: "error", path, message: `owner '${entity.owner}' must be a ref field to ${target}` }];
  }
  return [];
}
