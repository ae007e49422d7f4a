import { type AuthEntitySearch, checkCredentialTypes, findAuthEntity } from "./auth-entity-rules.js";
import { checkEntityName, checkFields, checkOwner } from "./entity-rules.js";
import { asRecord, isRecord, type Loose, stringsOf } from "./loose-data.js";
import { checkMfa } from "./mfa-rules.js";
import { checkOrganizations, checkTenant, checkTenantRefs } from "./organization-rules.js";
import { checkPermissions } from "./permission-rules.js";
import { checkProviders } from "./provider-rules.js";
import { checkRoleField, checkRoleList } from "./role-rules.js";
import { type DomainScope, type EntityScope, entityScopeOf } from "./rule-context.js";
import type { Finding } from "./source.js";
import { setupRoleOf } from "./vocabulary.js";

/** The rules on one entity, in the order their findings are reported. */
function checkEntity(domain: DomainScope, scope: EntityScope, segments: Map<string, string>): Finding[] {
  return [
    ...checkEntityName(scope, segments),
    ...checkFields(domain, scope),
    ...(scope.isAuthEntity ? [...checkCredentialTypes(scope), ...checkRoleField(domain, scope)] : []),
    ...checkOwner(domain, scope),
    ...checkPermissions(domain, scope),
    ...checkTenant(domain, scope),
    ...checkTenantRefs(domain, scope),
  ];
}

/**
 * The cross-reference rules of `domain.yaml` (docs/domain-yaml.md#validation), checked on data whose shape may
 * still be wrong in places: whatever is malformed is skipped here (the schema reports it).
 *
 * @example
 * const findings = checkDomainRules({ entities: { … }, auth: { type: "jwt", roles: ["Admin"] } });
 */
export function checkDomainRules(data: Loose): Finding[] {
  const entities = asRecord(data.entities) ?? {};
  const auth = asRecord(data.auth) ?? {};
  const authType = typeof auth.type === "string" ? auth.type : undefined;
  const roles = stringsOf(auth.roles);
  const authEntity: AuthEntitySearch = authType === "jwt" ? findAuthEntity(entities, auth) : { findings: [] };
  const domain: DomainScope = {
    entityNames: Object.keys(entities),
    authType,
    roles,
    setupRole: setupRoleOf(roles),
    authEntity: authEntity.name,
    organizationRoles: asRecord(auth.organizations) ? stringsOf(asRecord(auth.organizations)?.roles) : undefined,
    tenants: new Set(Object.entries(entities).flatMap(([name, entity]) => (asRecord(entity)?.tenant === true ? [name] : []))),
  };

  const findings = [
    ...checkRoleList(roles),
    ...authEntity.findings,
    ...checkMfa(domain, auth),
    ...checkProviders(domain, auth, entities),
    ...checkOrganizations(domain, auth),
  ];
  const segments = new Map<string, string>();
  for (const [name, entity] of Object.entries(entities)) {
    if (isRecord(entity)) findings.push(...checkEntity(domain, entityScopeOf(domain, name, entity), segments));
  }
  return findings;
}
