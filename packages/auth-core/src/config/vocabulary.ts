/**
 * The words of `domain.yaml` and the rules on names, with no dependencies: tools that must
 * start fast (the wizard) import this instead of the validating model.
 */
import { didYouMean, IDENTIFIER } from "./naming.js";

export { closestMatch, ENTITY_NAME, IDENTIFIER, toSegment, toTableName } from "./naming.js";
/** The providers people may sign in with (docs/providers.md): their types, presets and variables. */
export { PROVIDER_PRESETS, PROVIDER_TYPES, type ProviderType, providerVariable } from "./providers.js";

export const FIELD_TYPES = ["string", "text", "integer", "number", "boolean", "datetime", "ref", "enum"] as const;
export const OPERATIONS = ["create", "read", "update", "delete"] as const;
export const ENDPOINTS = ["login", "register", "me", "setup", "logout", "refresh", "sessions", "passwordReset", "verifyEmail"] as const;
export const AUTH_TYPES = ["jwt", "none"] as const;
/** The second factors `auth.mfa` switches (docs/mfa.md). */
export const MFA_METHODS = ["totp", "passkeys"] as const;
/**
 * What switches an auth endpoint on: an `auth.endpoints` flag; `totp` or `passkeys` (`auth.mfa`)
 * for the endpoints of each second factor; `mfa` for those of any (the second step of a sign-in).
 */
export const ENDPOINT_FLAGS = [...ENDPOINTS, "totp", "passkeys", "mfa", "providers", "organizations"] as const;
/** Auth types that are announced but not implemented. */
export const PLANNED_AUTH_TYPES = ["cookie", "oauth2"] as const;

export type FieldType = (typeof FIELD_TYPES)[number];
export type Operation = (typeof OPERATIONS)[number];
export type Endpoint = (typeof ENDPOINTS)[number];
export type AuthType = (typeof AUTH_TYPES)[number];
export type MfaMethod = (typeof MFA_METHODS)[number];
export type EndpointFlag = (typeof ENDPOINT_FLAGS)[number];

/**
 * The web app's auth pages (its `app/(domain-auth)` route group) by name, each with what it needs
 * to exist: the endpoint flag its form calls (`organizations` for the organization pages), `jwt`
 * for any `auth.type: jwt`, or `null` (always).
 */
export const AUTH_PAGE_NEEDS = {
  setup: "setup",
  login: "login",
  register: "register",
  profile: "jwt",
  admin: null,
  "forgot-password": "passwordReset",
  "reset-password": "passwordReset",
  "verify-email": "verifyEmail",
  docs: null,
  orgs: "organizations",
  invitations: "organizations",
} as const satisfies Record<string, EndpointFlag | "jwt" | null>;

/** An auth page by name: its path is `/<name>`. */
export type AuthPage = keyof typeof AUTH_PAGE_NEEDS;

/**
 * The paths of the web app's auth pages. They render per request and carry the nonce-based
 * security headers; a project's own pages keep theirs.
 */
export const AUTH_PAGES: readonly string[] = Object.freeze(Object.keys(AUTH_PAGE_NEEDS).map((page) => `/${page}`));

/**
 * The auth pages with a page per item under them, `/<name>/<id>` (an organization's `/orgs/<id>`):
 * those are auth pages too, with the same needs.
 */
export const AUTH_ITEM_PAGES: readonly AuthPage[] = Object.freeze(["orgs"] as const);

/**
 * The auth pages with a section of pages at any depth under them (the admin's `/admin/users/<id>`,
 * `/admin/records/<segment>/<id>`): those are auth pages too, with the same needs.
 */
export const AUTH_SECTION_PAGES: readonly AuthPage[] = Object.freeze(["admin"] as const);

/**
 * Whether an auth page exists for a domain whose endpoints are `endpoints` (`null` under
 * `auth.type: none`, where only the pages that need nothing exist). A flag that is not an
 * `auth.endpoints` one (`organizations`) counts only where `endpoints` has it on.
 * @example authPageExists("forgot-password", auth.endpoints) // false without e-mail
 */
export function authPageExists(
  page: AuthPage,
  endpoints: (Readonly<Record<Endpoint, boolean>> & Readonly<Partial<Record<EndpointFlag, boolean>>>) | null,
): boolean {
  const needs: EndpointFlag | "jwt" | null = AUTH_PAGE_NEEDS[page];
  if (needs === null) return true;
  if (endpoints === null) return false;
  return needs === "jwt" || endpoints[needs] === true;
}

/** The endpoint flags whose routes send e-mail: they exist only where e-mail can be sent (docs/mail.md). */
export const MAIL_ENDPOINTS = ["passwordReset", "verifyEmail"] as const satisfies readonly Endpoint[];

/** The fields the auth entity must have. */
export const CREDENTIAL_FIELDS = ["email", "password"] as const;
export type CredentialField = (typeof CREDENTIAL_FIELDS)[number];

/** An entity as far as finding the auth entity goes: its name and the names of its fields. */
export interface NamedFields {
  readonly name: string;
  readonly fields: readonly string[];
}

/** The entities that declare every credential field: the candidates for the auth entity. */
export function credentialEntityNames(entities: readonly NamedFields[]): string[] {
  return entities.filter((entity) => CREDENTIAL_FIELDS.every((field) => entity.fields.includes(field))).map((entity) => entity.name);
}

/**
 * The auth entity a file names or implies (docs/domain-yaml.md#auth): `auth.entity` when it names an entity,
 * else the one entity with both credential fields; `undefined` when there is none or several.
 * (Validation reports an `auth.entity` that names no entity; this only suggests.)
 */
export function impliedAuthEntity(named: string | undefined, entities: readonly NamedFields[]): string | undefined {
  if (named !== undefined && entities.some((entity) => entity.name === named)) return named;
  const candidates = credentialEntityNames(entities);
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** Why a planned auth type (`cookie`, `oauth2`) cannot be used yet. */
export function plannedAuthTypeMessage(type: string): string {
  return `auth.type '${type}' is planned but not implemented; use jwt or none`;
}

/** Why a role cannot be the one register gives, said after the role's name. */
export const SETUP_ROLE_AS_DEFAULT = "is the setup role; register must never create an administrator";

/**
 * Why a role named in a permission list or in `auth.mfa.required` cannot be used: it is not in
 * `auth.roles` (rule 5). Names a close declared role, else the declared ones.
 * @example undeclaredRoleMessage("Admn", ["Admin"]) // "role 'Admn' is not declared in auth.roles (did you mean 'Admin'?)"
 */
export function undeclaredRoleMessage(role: string, roles: readonly string[]): string {
  const validRoles = [...new Set(roles.filter((declared) => IDENTIFIER.test(declared)))];
  const hint = didYouMean(role, validRoles) || (validRoles.length > 0 ? ` (declared: ${validRoles.join(", ")})` : "");
  return `role '${role}' is not declared in auth.roles${hint}`;
}

/** The setup role for a list of declared roles: `Admin` when listed (or no roles are), else the first. */
export function setupRoleOf(roles: readonly string[]): string {
  return roles.length === 0 || roles.includes("Admin") ? "Admin" : (roles[0] as string);
}

/** The URL segment of organizations (docs/organizations.md): `/api/orgs`, and a tenant entity's `/api/orgs/<orgId>/<segment>`. */
export const ORGANIZATIONS_SEGMENT = "orgs";

/** Segments under `/api/orgs/<orgId>/` the organization endpoints use: no tenant entity may take them. */
export const ORGANIZATION_SUBPATHS = ["members", "invitations"] as const;

/** The server-owned column of a tenant record: the organization it belongs to. */
export const ORGANIZATION_ID_FIELD = "organizationId";

const MEMBER_TOKEN = /^@Member(?:\(([^()]*)\))?$/;

/**
 * A permission list's `@Member` token: `{ roles: null }` for `@Member` (any member), the roles of
 * `@Member(Owner, Manager)`, or `null` for anything else.
 * @example parseMemberToken("@Member(Owner, Manager)") // { roles: ["Owner", "Manager"] }
 */
export function parseMemberToken(token: string): { readonly roles: readonly string[] | null } | null {
  const match = MEMBER_TOKEN.exec(token);
  if (!match) return null;
  if (match[1] === undefined) return { roles: null };
  return { roles: match[1].split(",").map((role) => role.trim()) };
}
