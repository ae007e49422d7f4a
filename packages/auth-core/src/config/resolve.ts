import { findAuthEntity } from "./auth-entity-rules.js";
import type { AuthModel, DomainModel, EntityModel, FieldModel, OrganizationsModel, PermissionMap, ProviderModel } from "./model.js";
import { toSegment, toTableName } from "./naming.js";
import { GITHUB_URL, PROVIDER_PRESETS } from "./providers.js";
import type { DomainDeclaration, EntityDeclaration, FieldDeclaration, ProviderDeclaration } from "./schema.js";
import { ENDPOINTS, OPERATIONS, setupRoleOf } from "./vocabulary.js";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function fieldModel(name: string, declaration: FieldDeclaration): FieldModel {
  const { type, required = false, unique = false, ...options } = declaration;
  return { name, type, required, unique, ...options };
}

function guardedPermissions(declared: PermissionMap, setupRole: string): PermissionMap {
  return {
    create: declared.create ?? [setupRole],
    read: declared.read ?? [setupRole, "@Owner"],
    update: declared.update ?? [setupRole, "@Owner"],
    delete: declared.delete ?? [setupRole],
  };
}

/** A tenant entity's operations without an entry are its members' (docs/organizations.md#permissions), never every signed-in user's. */
function memberPermissions(declared: PermissionMap): PermissionMap {
  return Object.fromEntries(OPERATIONS.map((operation) => [operation, declared[operation] ?? ["@Member"]]));
}

function entityModel(
  name: string,
  declaration: EntityDeclaration,
  options: { isAuthEntity: boolean; setupRole: string; roles: readonly string[] },
): EntityModel {
  const fields = Object.entries(declaration.fields).map(([fieldName, field]) => fieldModel(fieldName, field));
  const declared: PermissionMap = declaration.permissions ?? {};
  const usesOwner = OPERATIONS.some((operation) => declared[operation]?.includes("@Owner"));
  const hiddenOwner = !options.isAuthEntity && usesOwner && declaration.owner === undefined;

  if (options.isAuthEntity && !fields.some((field) => field.name === "role")) {
    fields.push({ name: "role", type: "string", required: false, unique: false });
  }
  if (options.isAuthEntity) {
    // A role is a declared one (or the setup role, when none are declared): docs/domain-yaml.md#validation.
    const values = options.roles.length > 0 ? [...options.roles] : [options.setupRole];
    for (const [index, field] of fields.entries()) if (field.name === "role") fields[index] = { ...field, values };
  }
  if (hiddenOwner) fields.push({ name: "ownerId", type: "ref", required: false, unique: false });

  return {
    name,
    segment: toSegment(name),
    table: toTableName(name),
    fields,
    ownerField: options.isAuthEntity ? null : (declaration.owner ?? (hiddenOwner ? "ownerId" : null)),
    hiddenOwner,
    permissions: options.isAuthEntity
      ? guardedPermissions(declared, options.setupRole)
      : declaration.tenant === true
        ? memberPermissions(declared)
        : declared,
    isAuthEntity: options.isAuthEntity,
    tenant: declaration.tenant === true,
  };
}

/** Builds the frozen model from a declaration that passed validation. */
export function resolveDomain(declaration: DomainDeclaration): DomainModel {
  const jwt = declaration.auth.type === "jwt";
  const roles = declaration.auth.roles ?? [];
  const setupRole = setupRoleOf(roles);
  const authEntityName = jwt ? findAuthEntity(declaration.entities, declaration.auth).name : undefined;

  const entities = Object.entries(declaration.entities).map(([name, entity]) =>
    entityModel(name, entity, { isAuthEntity: name === authEntityName, setupRole, roles }),
  );
  for (const entity of entities) {
    for (const field of entity.fields) {
      if (field.name === "ownerId" && entity.hiddenOwner && authEntityName) Object.assign(field, { to: authEntityName });
    }
  }

  let auth: AuthModel | null = null;
  const authEntity = entities.find((entity) => entity.isAuthEntity);
  if (jwt && authEntity) {
    const roleDefault = authEntity.fields.find((field) => field.name === "role")?.default;
    auth = {
      type: "jwt",
      entity: authEntity,
      roles,
      setupRole,
      defaultRole: typeof roleDefault === "string" ? roleDefault : null,
      endpoints: Object.fromEntries(
        ENDPOINTS.map((endpoint) => [endpoint, declaration.auth.endpoints?.[endpoint] ?? true]),
      ) as AuthModel["endpoints"],
      verifyEmail: declaration.auth.verifyEmail ?? false,
      mfa: {
        totp: declaration.auth.mfa?.totp ?? true,
        passkeys: declaration.auth.mfa?.passkeys ?? true,
        required: declaration.auth.mfa?.required ?? [],
      },
      providers: Object.entries(declaration.auth.providers ?? {}).map(([id, provider]) => resolveProvider(id, provider)),
      organizations: resolveOrganizations(declaration.auth.organizations),
    };
  }
  return deepFreeze({ name: declaration.name, entities, auth, hasAuth: auth !== null });
}

/** A provider's declaration with its preset applied: its name, issuer or address, scopes. */
function resolveProvider(id: string, provider: ProviderDeclaration): ProviderModel {
  const preset = PROVIDER_PRESETS[provider.type];
  const trim = (url: string) => url.replace(/\/+$/, "");
  return {
    id,
    type: provider.type,
    name: provider.name ?? (preset.name || id),
    protocol: preset.protocol,
    // As written: discovery checks that the provider names exactly this issuer.
    issuer: preset.protocol === "oidc" ? (provider.issuer ?? preset.issuer?.(provider) ?? "") : null,
    url: preset.protocol === "github" ? trim(provider.url ?? GITHUB_URL) : null,
    scopes: provider.scopes ?? preset.scopes,
    vouchesForEmail: preset.vouchesForEmail,
  };
}

/** `auth.organizations` with its defaults: `manage` the first role, `create` any signed-in user. */
function resolveOrganizations(declared: DomainDeclaration["auth"]["organizations"]): OrganizationsModel | null {
  if (!declared) return null;
  const first = declared.roles[0] as string;
  return { roles: declared.roles, manage: declared.manage ?? [first], create: declared.create ?? ["@Authenticated"] };
}
