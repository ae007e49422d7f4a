import type { PathSegment } from "./diagnostics.js";
import { fieldOf } from "./loose-data.js";
import { didYouMean } from "./naming.js";
import type { DomainScope, EntityScope } from "./rule-context.js";
import type { Finding } from "./source.js";
import { SETUP_ROLE_AS_DEFAULT, undeclaredRoleMessage } from "./vocabulary.js";

/** A role may be declared in `auth.roles` only once (rule 4). */
export function checkRoleList(roles: readonly string[]): Finding[] {
  const seen = new Set<string>();
  return roles.flatMap((role, index): Finding[] => {
    const twice = seen.has(role);
    seen.add(role);
    return twice ? [{ severity: "error", path: ["auth", "roles", index], message: `role '${role}' is declared twice` }] : [];
  });
}

/** A role named in a permission list or in `auth.mfa.required` must be declared in `auth.roles` (rule 5). */
export function checkDeclaredRole(role: string, roles: readonly string[], path: readonly PathSegment[]): Finding[] {
  if (roles.includes(role)) return [];
  return [{ severity: "error", path, message: undeclaredRoleMessage(role, roles) }];
}

/**
 * The auth entity's `role` field: a string field whose default, when given, is a declared role
 * other than the setup role (register must never create an administrator).
 */
export function checkRoleField(domain: DomainScope, scope: EntityScope): Finding[] {
  const role = fieldOf(scope.entity, "role");
  if (!role) return [];
  const path = [...scope.path, "fields", "role"];
  const findings: Finding[] = [];
  if (role.type !== "string") {
    findings.push({ severity: "error", path: [...path, "type"], message: "the auth entity's 'role' must be a string field" });
  }
  if (typeof role.default !== "string") return findings;
  const { roles, setupRole } = domain;
  if (!roles.includes(role.default)) {
    const hint = didYouMean(role.default, roles);
    findings.push({
      severity: "error",
      path: [...path, "default"],
      message: `default role '${role.default}' is not declared in auth.roles${hint}`,
    });
  } else if (role.default === setupRole) {
    findings.push({ severity: "error", path: [...path, "default"], message: `default role '${role.default}' ${SETUP_ROLE_AS_DEFAULT}` });
  }
  return findings;
}
