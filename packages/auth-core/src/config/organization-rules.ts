import { type Loose, stringsOf } from "./loose-data.js";
import { toSegment } from "./naming.js";
import type { DomainScope, EntityScope } from "./rule-context.js";
import type { Finding } from "./source.js";
import { ORGANIZATION_ID_FIELD, ORGANIZATION_SUBPATHS, ORGANIZATIONS_SEGMENT } from "./vocabulary.js";

const ORGANIZATIONS = ["auth", "organizations"] as const;

/** `manage` names organization roles; `create` names global roles or `@Authenticated`. */
function checkLists(domain: DomainScope, organizations: Loose, roles: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  for (const [index, role] of stringsOf(organizations.manage).entries()) {
    if (!roles.includes(role)) {
      findings.push({
        severity: "error",
        path: [...ORGANIZATIONS, "manage", index],
        message: `'${role}' is not an organization role (declared: ${roles.join(", ")})`,
      });
    }
  }
  for (const [index, role] of stringsOf(organizations.create).entries()) {
    if (role !== "@Authenticated" && !domain.roles.includes(role)) {
      findings.push({
        severity: "error",
        path: [...ORGANIZATIONS, "create", index],
        message: `'${role}' is neither a role of auth.roles nor @Authenticated`,
      });
    }
  }
  return findings;
}

/** The roles inside an organization: unique, and none named like a global role (a permission list could not tell them apart). */
function checkRoles(domain: DomainScope, roles: readonly string[]): Finding[] {
  const seen = new Set<string>();
  return roles.flatMap((role, index): Finding[] => {
    const path = [...ORGANIZATIONS, "roles", index];
    const twice = seen.has(role);
    seen.add(role);
    if (twice) return [{ severity: "error", path, message: `organization role '${role}' is declared twice` }];
    if (domain.roles.includes(role)) {
      return [{ severity: "error", path, message: `'${role}' is also a role of auth.roles: name organization roles apart` }];
    }
    return [];
  });
}

/**
 * `auth.organizations` (docs/organizations.md#domainyaml): only under `auth.type: jwt`; its roles
 * unique and apart from `auth.roles`; `manage` and `create` name roles that exist.
 */
export function checkOrganizations(domain: DomainScope, auth: Loose): Finding[] {
  const organizations = auth.organizations;
  if (organizations === undefined || typeof organizations !== "object" || organizations === null) return [];
  if (domain.authType === "none") {
    return [
      { severity: "error", path: [...ORGANIZATIONS], anchor: "key", message: "auth.type is none: nobody signs in, so nobody is a member" },
    ];
  }
  const roles = domain.organizationRoles ?? [];
  return [...checkRoles(domain, roles), ...checkLists(domain, organizations as Loose, roles)];
}

/**
 * A tenant entity needs organizations, is never the auth entity, declares no `organizationId` and
 * takes no segment the organization endpoints use; while organizations are on, no entity is at `/api/orgs`.
 */
export function checkTenant(domain: DomainScope, scope: EntityScope): Finding[] {
  const findings: Finding[] = [];
  const segment = toSegment(scope.name);
  if (domain.organizationRoles !== undefined && segment === ORGANIZATIONS_SEGMENT) {
    findings.push({
      severity: "error",
      path: scope.path,
      anchor: "key",
      message: `the segment '${segment}' is the organizations' (/api/orgs)`,
    });
  }
  if (!scope.isTenant) return findings;
  const at = [...scope.path, "tenant"];
  if (domain.organizationRoles === undefined) {
    findings.push({ severity: "error", path: at, message: "tenant: true needs auth.organizations: records belong to an organization" });
  }
  if (scope.isAuthEntity) {
    findings.push({
      severity: "error",
      path: at,
      message: "the auth entity cannot be a tenant: users belong to organizations through memberships",
    });
  }
  if ((ORGANIZATION_SUBPATHS as readonly string[]).includes(segment)) {
    findings.push({
      severity: "error",
      path: scope.path,
      anchor: "key",
      message: `a tenant entity cannot take the segment '${segment}': /api/orgs/<orgId>/${segment} is the organization's own`,
    });
  }
  if (scope.fields[ORGANIZATION_ID_FIELD] !== undefined) {
    findings.push({
      severity: "error",
      path: [...scope.path, "fields", ORGANIZATION_ID_FIELD],
      anchor: "key",
      message: `'${ORGANIZATION_ID_FIELD}' is managed by the service on a tenant entity and cannot be declared`,
    });
  }
  return findings;
}

/**
 * A `ref` to a tenant entity comes only from a tenant entity (and names a record of the same
 * organization): a record outside every organization could otherwise point into one.
 */
export function checkTenantRefs(domain: DomainScope, scope: EntityScope): Finding[] {
  if (scope.isTenant) return [];
  return Object.entries(scope.fields).flatMap(([name, field]): Finding[] => {
    const target = (field as Loose | null)?.to;
    if (typeof target !== "string" || !domain.tenants.has(target)) return [];
    return [
      {
        severity: "error",
        path: [...scope.path, "fields", name, "to"],
        message: `${target} is a tenant entity: only another tenant entity may refer to its records`,
      },
    ];
  });
}
