import type { ProviderType } from "./providers.js";
import type { Endpoint, FieldType, Operation } from "./vocabulary.js";

/** A resolved field of an entity. */
export interface FieldModel {
  readonly name: string;
  readonly type: FieldType;
  readonly required: boolean;
  readonly unique: boolean;
  readonly default?: string | number | boolean;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  /** For `ref` fields: the target entity's name. */
  readonly to?: string;
  /** The values it may take, when they are few: the auth entity's `role` takes the declared roles. */
  readonly values?: readonly string[];
}

/** Who may perform each operation; an absent entry means "any authenticated user". */
export type PermissionMap = Readonly<Partial<Record<Operation, readonly string[]>>>;

/** A resolved entity. */
export interface EntityModel {
  readonly name: string;
  /** URL segment: `/api/<segment>`. */
  readonly segment: string;
  /** SQL table name. */
  readonly table: string;
  /**
   * Every stored field: the declared ones, plus `role` on the auth entity and the hidden
   * `ownerId` when `@Owner` is used without `owner:`. On the auth entity `password` is listed
   * too; it is stored only as a hash.
   */
  readonly fields: readonly FieldModel[];
  /** The field holding the owning user's id, or `null` (always `null` on the auth entity). */
  readonly ownerField: string | null;
  /** `true` when `ownerField` is the hidden `ownerId`, not a declared field. */
  readonly hiddenOwner: boolean;
  /** Effective permissions (the auth entity's guarded defaults applied). */
  readonly permissions: PermissionMap;
  readonly isAuthEntity: boolean;
  /**
   * `tenant: true`: each record belongs to one organization (docs/organizations.md), kept in the
   * server-owned `organizationId` column, and is served only under `/api/orgs/<orgId>/<segment>`.
   */
  readonly tenant: boolean;
}

/** The resolved `auth.mfa` block: which second factors exist, and who must use one (docs/mfa.md). */
export interface MfaModel {
  /** Codes from an authenticator app (TOTP), with recovery codes. @default true */
  readonly totp: boolean;
  /** Passkeys (WebAuthn). @default true */
  readonly passkeys: boolean;
  /** Roles whose users enrol a second factor at their next sign-in. @default [] */
  readonly required: readonly string[];
}

/** A provider people may sign in with (docs/providers.md), its preset applied. */
export interface ProviderModel {
  /** Its key under `auth.providers`: in paths (`oauth/<id>`) and variable names. */
  readonly id: string;
  readonly type: ProviderType;
  /** The button's label: `name`, else the preset's name, else the id. */
  readonly name: string;
  /** `oidc`: OpenID Connect by discovery; `github`: OAuth 2.0 and GitHub's REST API. */
  readonly protocol: "oidc" | "github";
  /** An OpenID provider's issuer (discovery at `<issuer>/.well-known/openid-configuration`); `null` for GitHub. */
  readonly issuer: string | null;
  /** GitHub's web address (GitHub.com or an Enterprise Server); `null` for an OpenID provider. */
  readonly url: string | null;
  readonly scopes: readonly string[];
  /** Whether the e-mail it vouches for (`email_verified`) may be trusted: never Microsoft's. */
  readonly vouchesForEmail: boolean;
}

/** The resolved `auth.organizations` block (docs/organizations.md). */
export interface OrganizationsModel {
  /** The roles inside an organization, highest first: the first is its creator's (the "first role"). */
  readonly roles: readonly string[];
  /** The organization roles that invite, change roles and remove members. @default [the first role] */
  readonly manage: readonly string[];
  /** Who may create an organization: global roles, or `@Authenticated`. @default ["@Authenticated"] */
  readonly create: readonly string[];
}

/** The resolved `auth` block when `auth.type` is `jwt`. */
export interface AuthModel {
  readonly type: "jwt";
  readonly entity: EntityModel;
  readonly roles: readonly string[];
  /** The role setup gives the first user: `Admin` when listed (or no roles are), else the first role. */
  readonly setupRole: string;
  /** The role register gives: the auth entity's `role` default, or `null`. */
  readonly defaultRole: string | null;
  readonly endpoints: Readonly<Record<Endpoint, boolean>>;
  /** `auth.verifyEmail`: users who never confirmed an e-mail address cannot sign in. @default false */
  readonly verifyEmail: boolean;
  /** `auth.mfa`, its defaults filled in. */
  readonly mfa: MfaModel;
  /** `auth.providers`, in the declared order (the order of the buttons). @default [] */
  readonly providers: readonly ProviderModel[];
  /** `auth.organizations`; `null` when the domain has no organizations. */
  readonly organizations: OrganizationsModel | null;
}

/** A validated, resolved and frozen `domain.yaml`. */
export interface DomainModel {
  /** The service name; the JWT issuer. */
  readonly name: string;
  readonly entities: readonly EntityModel[];
  /** `null` when `auth.type` is `none`. */
  readonly auth: AuthModel | null;
  /** `true` when `auth.type` is `jwt` (the bridge manifest's `hasAuth`). */
  readonly hasAuth: boolean;
}
