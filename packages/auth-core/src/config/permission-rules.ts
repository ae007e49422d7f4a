import type { PathSegment } from "./diagnostics.js";
import { asRecord, type Loose, stringsOf } from "./loose-data.js";
import { checkDeclaredRole } from "./role-rules.js";
import type { DomainScope, EntityScope } from "./rule-context.js";
import type { Finding } from "./source.js";
import { OPERATIONS, type Operation, parseMemberToken } from "./vocabulary.js";

const KNOWN_TOKENS = new Set(["*", "@Owner", "@Authenticated"]);

/** `true` when some operation of a `permissions` map grants `@Owner`. */
export function grantsOwner(permissions: Loose | undefined): boolean {
  return OPERATIONS.some((operation) => stringsOf(permissions?.[operation]).includes("@Owner"));
}

/** `@Member` and `@Member(R, …)`: on a tenant entity only, naming organization roles. */
function checkMemberToken(domain: DomainScope, scope: EntityScope, path: PathSegment[], roles: readonly string[] | null): Finding[] {
  if (!scope.isTenant) {
    return [{ severity: "error", path, message: "@Member applies to tenant entities only (tenant: true)" }];
  }
  if (roles === null) return [];
  const known = domain.organizationRoles ?? [];
  if (roles.length === 0 || roles.some((role) => role === "")) {
    return [{ severity: "error", path, message: "@Member(…) names organization roles, separated by commas" }];
  }
  return roles
    .filter((role) => !known.includes(role))
    .map((role) => ({
      severity: "error" as const,
      path,
      message: `'${role}' is not an organization role (declared: ${known.join(", ") || "none"})`,
    }));
}

/** A token (`@…`) must be known (a warning otherwise), and `@Owner` cannot grant create on the auth entity. */
function checkToken(
  domain: DomainScope,
  token: string,
  where: { operation: Operation; path: PathSegment[]; scope: EntityScope },
): Finding[] {
  const { operation, path, scope } = where;
  const member = parseMemberToken(token);
  if (member) return checkMemberToken(domain, scope, path, member.roles);
  if (!KNOWN_TOKENS.has(token)) {
    return [{ severity: "warning", path, message: `unknown token '${token}' grants nothing (known: @Owner, @Authenticated, @Member)` }];
  }
  if (token === "@Owner" && operation === "create" && scope.isAuthEntity) {
    return [{ severity: "error", path, message: "@Owner cannot grant create on the auth entity: the record does not exist yet" }];
  }
  return [];
}

function checkPermissionList(domain: DomainScope, scope: EntityScope, operation: Operation, list: unknown[]): Finding[] {
  return list.flatMap((item, index) => {
    if (typeof item !== "string" || item === "*") return [];
    const path = [...scope.path, "permissions", operation, index];
    return item.startsWith("@") ? checkToken(domain, item, { operation, path, scope }) : checkDeclaredRole(item, domain.roles, path);
  });
}

/**
 * An entity's `permissions`: with `auth.type: none` the block is a warning (nothing is enforced);
 * every role must be declared and every token known (rule 5).
 */
export function checkPermissions(domain: DomainScope, scope: EntityScope): Finding[] {
  const permissions = asRecord(scope.entity.permissions);
  const findings: Finding[] = [];
  if (permissions && domain.authType === "none") {
    findings.push({
      severity: "warning",
      path: [...scope.path, "permissions"],
      anchor: "key",
      message: "auth.type is none: permissions are not enforced and every operation is open",
    });
  }
  for (const operation of OPERATIONS) {
    const list = permissions?.[operation];
    if (Array.isArray(list)) findings.push(...checkPermissionList(domain, scope, operation, list));
  }
  return findings;
}
