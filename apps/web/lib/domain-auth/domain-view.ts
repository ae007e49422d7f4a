import type { DomainModel, EntityModel, FieldModel, PermissionMap } from "@domain-auth/core/config";
import { endpointFlagsOf } from "@domain-auth/core/endpoints";
import { apiKeyScopes, type OrganizationRules, type ProviderSummary } from "@domain-auth/core/policy";
import type { EndpointFlag } from "@domain-auth/core/vocabulary";

/** A field as the browser needs it to render an input and a table cell. */
export interface FieldView {
  readonly name: string;
  readonly type: FieldModel["type"];
  readonly required: boolean;
  readonly default?: string | number | boolean;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  readonly to?: string;
  /** An `enum` field's values (and the auth entity's `role`: the declared roles). */
  readonly values?: readonly string[];
}

/**
 * An entity as the browser sees it: writable fields, owner field and permissions, enough for the
 * core's permission rules (`mayPerform`) to read it as they read the model.
 */
export interface EntityView {
  readonly name: string;
  readonly segment: string;
  /** Declared fields clients may send, without `password` and without the owner field. */
  readonly fields: readonly FieldView[];
  /** The field holding the owner's id (set by the server on create), or `null`. */
  readonly ownerField: string | null;
  readonly permissions: PermissionMap;
  /** Never the auth entity: its users are managed apart. */
  readonly isAuthEntity: false;
  /** `tenant: true`: its records belong to an organization, under `/api/orgs/<orgId>/<segment>` (docs/organizations.md). */
  readonly tenant: boolean;
}

/**
 * The auth entity as the core's permission rules read it (`mayPerform`, `guardedFields`,
 * `checkFieldGuards`): whether a user may change their own record, and which fields they may write.
 */
export interface AuthEntityView {
  readonly segment: string;
  /** Always `null`: the auth entity has no owner field (`@Owner` on it means the record is the caller). */
  readonly ownerField: string | null;
  /** With the defaults of docs/api.md#the-auth-entity filled in. */
  readonly permissions: PermissionMap;
  readonly isAuthEntity: true;
}

/** The `auth` block as the browser sees it. */
export interface AuthView {
  readonly entityName: string;
  /** `/api/<segment>/login` and friends. */
  readonly segment: string;
  readonly roles: readonly string[];
  readonly setupRole: string;
  readonly defaultRole: string | null;
  /**
   * Which auth endpoints exist on this server (`login`, …, `sessions`, the e-mail ones only where it can
   * send e-mail, and `totp`, `passkeys`, `mfa` for the second factors of `auth.mfa`): the pages call
   * and show only those.
   */
  readonly endpoints: Readonly<Record<EndpointFlag, boolean>>;
  /** `auth.verifyEmail`: register sends a confirmation link, and sign-in waits for it. */
  readonly verifyEmail: boolean;
  /** Fields of the auth entity besides `email`, `password` and `role` (asked at setup and register). */
  readonly profileFields: readonly FieldView[];
  /** The auth entity for the permission rules: what a user may change of their own record. */
  readonly entity: AuthEntityView;
  /** Every scope an API key may carry: each entity's segment with each operation (docs/api-keys.md). */
  readonly apiKeyScopes: readonly string[];
  /** The providers people may sign in with (`auth.providers`), in the order of their buttons. */
  readonly providers: readonly ProviderSummary[];
  /** `auth.organizations`: the roles inside an organization, who manages, who creates; `null` without organizations. */
  readonly organizations: OrganizationRules | null;
}

/** The serializable part of the domain model that client components receive as props. */
export interface DomainView {
  readonly name: string;
  /** `null` under `auth.type: none`. */
  readonly auth: AuthView | null;
  /** Every entity except the auth entity (its users are managed apart). */
  readonly entities: readonly EntityView[];
}

const CREDENTIAL_FIELDS = new Set(["email", "password", "role"]);

function toFieldView(field: FieldModel): FieldView {
  const { name, type, required, default: defaultValue, maxLength, min, max, to, values } = field;
  return {
    name,
    type,
    required,
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
    ...(maxLength === undefined ? {} : { maxLength }),
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
    ...(to === undefined ? {} : { to }),
    ...(values === undefined ? {} : { values }),
  };
}

function toEntityView(entity: EntityModel): EntityView {
  return {
    name: entity.name,
    segment: entity.segment,
    fields: entity.fields.filter((field) => field.name !== "password" && field.name !== entity.ownerField).map(toFieldView),
    ownerField: entity.ownerField,
    permissions: entity.permissions,
    isAuthEntity: false,
    tenant: entity.tenant,
  };
}

/**
 * Projects the resolved model onto what the pages need, dropping storage details. `endpoints` are
 * the ones the running server has (`Auth.endpoints`); the model's flags when not given.
 */
export function toDomainView(model: DomainModel, endpoints?: Readonly<Record<EndpointFlag, boolean>> | null): DomainView {
  const auth = model.auth;
  return {
    name: model.name,
    auth: auth && {
      entityName: auth.entity.name,
      segment: auth.entity.segment,
      roles: auth.roles,
      setupRole: auth.setupRole,
      defaultRole: auth.defaultRole,
      endpoints: endpoints ?? endpointFlagsOf(auth),
      verifyEmail: auth.verifyEmail,
      profileFields: auth.entity.fields.filter((field) => !CREDENTIAL_FIELDS.has(field.name)).map(toFieldView),
      entity: {
        segment: auth.entity.segment,
        ownerField: auth.entity.ownerField,
        permissions: auth.entity.permissions,
        isAuthEntity: true,
      },
      apiKeyScopes: apiKeyScopes(model.entities),
      providers: auth.providers.map(({ id, name, type }) => ({ id, name, type })),
      organizations: auth.organizations && {
        roles: auth.organizations.roles,
        manage: auth.organizations.manage,
        create: auth.organizations.create,
      },
    },
    entities: model.entities.filter((entity) => !entity.isAuthEntity).map(toEntityView),
  };
}
