import type { MfaModel } from "@domain-auth/core/config";
import {
  CREDENTIAL_FIELDS,
  type CredentialField,
  credentialEntityNames,
  ENDPOINTS,
  type Endpoint,
  impliedAuthEntity,
  parseMemberToken,
  setupRoleOf,
} from "@domain-auth/core/vocabulary";
import { parseDocument } from "yaml";

export type { CredentialField };

/** What the wizard needs to know of one entity. */
export interface EntityState {
  readonly name: string;
  readonly fields: readonly string[];
  /** The `default` of its `role` field, when it has one. */
  readonly roleDefault: string | undefined;
}

/** A provider `auth.providers` declares: its id, and its `type` as written. */
export interface DeclaredProvider {
  readonly id: string;
  readonly type: unknown;
}

/** The current auth settings of a `domain.yaml`, read loosely (the file need not be valid). */
export interface DomainState {
  readonly type: string | undefined;
  /** `auth.entity` as written. */
  readonly entity: string | undefined;
  readonly entities: readonly EntityState[];
  readonly roles: readonly string[];
  readonly endpoints: Readonly<Record<Endpoint, boolean>>;
  /** `auth.verifyEmail` is `true`. */
  readonly verifyEmail: boolean;
  /** `auth.mfa`, its defaults filled in (`required` as written, declared or not). */
  readonly mfa: MfaModel;
  /** `auth.providers`, in the declared order. */
  readonly providers: readonly DeclaredProvider[];
  /** Role names used in any `permissions` list (not `*` nor `@` tokens), in order of first use. */
  readonly usedRoles: readonly string[];
  /** `auth.organizations.roles` as written; `undefined` when the file declares no `auth.organizations` map. */
  readonly organizationRoles: readonly string[] | undefined;
  /**
   * The organization roles the rest of the file names, in order of first use: in `@Member(…)`
   * permissions and in `auth.organizations.manage`.
   */
  readonly usedOrganizationRoles: readonly string[];
  /** The tenant entities (`tenant: true`), whose records belong to an organization. */
  readonly tenants: readonly string[];
}

type Loose = Record<string, unknown>;

function isRecord(value: unknown): value is Loose {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function record(value: unknown): Loose {
  return isRecord(value) ? value : {};
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function entityState(name: string, declaration: unknown): EntityState {
  const fields = record(record(declaration).fields);
  const roleDefault = record(fields.role).default;
  return { name, fields: Object.keys(fields), roleDefault: typeof roleDefault === "string" ? roleDefault : undefined };
}

/** The roles `@Member(…)` tokens name in the permissions, then those `manage` names. */
function usedOrganizationRolesOf(entities: Loose, organizations: Loose): string[] {
  const used = new Set<string>();
  for (const entity of Object.values(entities)) {
    for (const list of Object.values(record(record(entity).permissions))) {
      for (const token of strings(list)) for (const role of parseMemberToken(token)?.roles ?? []) used.add(role);
    }
  }
  for (const role of strings(organizations.manage)) used.add(role);
  return [...used];
}

function usedRolesOf(entities: Loose): string[] {
  const used = new Set<string>();
  for (const entity of Object.values(entities)) {
    for (const list of Object.values(record(record(entity).permissions))) {
      for (const role of strings(list)) if (role !== "*" && !role.startsWith("@")) used.add(role);
    }
  }
  return [...used];
}

/**
 * Reads the auth settings of a `domain.yaml` text.
 *
 * @returns `null` when the text is not well-formed YAML.
 */
export function readDomainState(text: string): DomainState | null {
  const document = parseDocument(text);
  if (document.errors.length > 0) return null;
  const data = record(document.toJS());
  const auth = record(data.auth);
  const entities = record(data.entities);
  const endpoints = record(auth.endpoints);
  const mfa = record(auth.mfa);
  const organizations = record(auth.organizations);
  return {
    type: typeof auth.type === "string" ? auth.type : undefined,
    entity: typeof auth.entity === "string" ? auth.entity : undefined,
    entities: Object.entries(entities).map(([name, declaration]) => entityState(name, declaration)),
    roles: strings(auth.roles),
    endpoints: Object.fromEntries(ENDPOINTS.map((name) => [name, endpoints[name] !== false])) as Record<Endpoint, boolean>,
    verifyEmail: auth.verifyEmail === true,
    mfa: { totp: mfa.totp !== false, passkeys: mfa.passkeys !== false, required: strings(mfa.required) },
    providers: Object.entries(record(auth.providers)).map(([id, provider]) => ({ id, type: record(provider).type })),
    usedRoles: usedRolesOf(entities),
    organizationRoles: isRecord(auth.organizations) ? strings(organizations.roles) : undefined,
    usedOrganizationRoles: usedOrganizationRolesOf(entities, organizations),
    tenants: Object.entries(entities).flatMap(([name, declaration]) => (record(declaration).tenant === true ? [name] : [])),
  };
}

/** The entities that have both `email` and `password` fields. */
export function credentialEntities(state: DomainState): string[] {
  return credentialEntityNames(state.entities);
}

/** The auth entity the file names or implies: `auth.entity`, else the one entity with credentials. */
export function detectAuthEntity(state: DomainState): string | undefined {
  return impliedAuthEntity(state.entity, state.entities);
}

/** The credential fields an entity lacks. */
export function missingCredentials(state: DomainState, entityName: string): CredentialField[] {
  const fields = state.entities.find((entity) => entity.name === entityName)?.fields ?? [];
  return CREDENTIAL_FIELDS.filter((field) => !fields.includes(field));
}

export { setupRoleOf };

/** The roles register may give: every declared role except the setup role. */
export function registerRoleCandidates(roles: readonly string[]): string[] {
  const setupRole = setupRoleOf(roles);
  return roles.filter((role) => role !== setupRole);
}
