import { type EndpointFlag, ORGANIZATIONS_SEGMENT } from "../config/vocabulary.js";
import { AUTH_ENDPOINTS, type EndpointEntry, type FixedAuthRoute } from "./catalog.js";

/** Where the API lives: every path of it starts here. */
export const API_PREFIX = "/api";

/** Where the API serves its OpenAPI 3.1 document (docs/api.md#cors); it needs no token. */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/** Anything with a URL segment: an entity (`EntityModel`, or a view of one) or the auth entity. */
export interface Segmented {
  readonly segment: string;
}

/** The query of a page of a list (docs/api.md#entity-endpoints). */
export interface ListQuery {
  /** `LIST_PAGE_LIMITS` of `records/list-page.ts`: 1 to 100; the server's default (20) when absent. */
  readonly limit?: number;
  /** The server's default (0) when absent. */
  readonly offset?: number;
  /** A page's `nextCursor`: the page after it (docs/api.md#lists; not with `offset`). */
  readonly after?: string;
  /** `exact`: count every record even above 10,000. */
  readonly total?: "exact";
  /** Only records one of whose `string` fields holds this text, ignoring case: 1 to 100 characters. */
  readonly q?: string;
  /** The order: a field, or `-` and a field for descending (docs/api.md#lists); the server's default (`createdAt`) when absent. */
  readonly sort?: string;
  /** Only records whose field holds the value, for each field given (`enum`, `boolean`, `ref`, the auth entity's `role`; `""`: holds none). */
  readonly where?: Readonly<Record<string, string>>;
}

/**
 * The path of an entity's collection: `GET` lists it, `POST` creates in it.
 * @example collectionPath(post, { limit: 20, offset: 40 }) // "/api/post?limit=20&offset=40"
 * @example collectionPath(user, { q: "ada", sort: "-createdAt", where: { role: "Admin" } }) // "/api/user?q=ada&sort=-createdAt&where.role=Admin"
 */
export function collectionPath(entity: Segmented & { readonly tenant?: boolean }, query: ListQuery = {}, organizationId?: string): string {
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set("limit", String(query.limit));
  if (query.offset !== undefined) params.set("offset", String(query.offset));
  if (query.after !== undefined) params.set("after", query.after);
  if (query.total !== undefined) params.set("total", query.total);
  if (query.q !== undefined) params.set("q", query.q);
  if (query.sort !== undefined) params.set("sort", query.sort);
  for (const [field, value] of Object.entries(query.where ?? {})) params.set(`where.${field}`, value);
  const search = params.toString();
  return `${collectionBase(entity, organizationId)}${search ? `?${search}` : ""}`;
}

/** Where an entity's records live: `/api/<segment>`, or a tenant entity's `/api/orgs/<orgId>/<segment>`. */
function collectionBase(entity: Segmented & { readonly tenant?: boolean }, organizationId: string | undefined): string {
  if (!entity.tenant) return `${API_PREFIX}/${entity.segment}`;
  if (organizationId === undefined) throw new TypeError(`${entity.segment} is a tenant entity: its records live under an organization`);
  return organizationPath(organizationId, entity.segment);
}

/**
 * The path of one record: `GET` reads it, `PATCH` updates it, `DELETE` deletes it.
 * @example itemPath(post, "p1") // "/api/post/p1"
 */
export function itemPath(entity: Segmented & { readonly tenant?: boolean }, id: string, organizationId?: string): string {
  return `${collectionBase(entity, organizationId)}/${encodeURIComponent(id)}`;
}

/** The paths of a domain's API: its auth endpoints (those without a path parameter), and any entity's collection and items. */
export type ApiPaths = Readonly<Record<FixedAuthRoute, string>> & {
  readonly collection: typeof collectionPath;
  readonly item: typeof itemPath;
};

function authPath(authEntity: Segmented, path: string): string {
  return `${API_PREFIX}/${authEntity.segment}/${path}`;
}

/**
 * The path of an endpoint of the catalog as a document writes it (`{id}` for a parameter): under
 * the auth entity's segment, or under `/api/orgs` for the organization endpoints.
 * @example entryPath(model.auth.entity, AUTH_ENDPOINTS.members) // "/api/orgs/{orgId}/members"
 */
export function entryPath(authEntity: Segmented, entry: EndpointEntry): string {
  if (entry.base === ORGANIZATIONS_SEGMENT) return entry.path === "" ? ORGANIZATIONS_PATH : `${ORGANIZATIONS_PATH}/${entry.path}`;
  return authPath(authEntity, entry.path);
}

/** Where organizations live (docs/organizations.md): `GET` lists the caller's, `POST` creates one. */
export const ORGANIZATIONS_PATH = `${API_PREFIX}/${ORGANIZATIONS_SEGMENT}`;

/**
 * The path of an organization, or of something under it: its members, invitations, a tenant entity's collection.
 * @example organizationPath("o1", "members", "u1") // "/api/orgs/o1/members/u1"
 */
export function organizationPath(organizationId: string, ...rest: readonly string[]): string {
  return [ORGANIZATIONS_PATH, organizationId, ...rest].map((part, index) => (index === 0 ? part : encodeURIComponent(part))).join("/");
}

/** The path of `POST orgs/invitations/accept`. */
export const ACCEPT_INVITATION_PATH = `${ORGANIZATIONS_PATH}/${AUTH_ENDPOINTS.acceptInvitation.path}`;

/**
 * The API paths of a domain whose auth entity is `authEntity` (its `EntityModel`, or a view with its segment).
 * @example apiPaths(model.auth.entity).login // "/api/user/login"
 */
export function apiPaths(authEntity: Segmented): ApiPaths {
  const entries = Object.entries(AUTH_ENDPOINTS) as [string, EndpointEntry][];
  const fixed = entries.filter(([, entry]) => !entry.path.includes("{")).map(([name, entry]) => [name, entryPath(authEntity, entry)]);
  return { ...(Object.fromEntries(fixed) as Record<FixedAuthRoute, string>), collection: collectionPath, item: itemPath };
}

/**
 * The path of one of the caller's sessions: `DELETE` signs it out (docs/api.md#sessions).
 * @example sessionPath(model.auth.entity, "Qm9u") // "/api/user/sessions/Qm9u"
 */
export function sessionPath(authEntity: Segmented, id: string): string {
  return authPath(authEntity, AUTH_ENDPOINTS.session.path.replace("{id}", encodeURIComponent(id)));
}

/**
 * The path of one of the caller's passkeys: `DELETE` removes it (docs/mfa.md).
 * @example passkeyPath(model.auth.entity, "5f0c…") // "/api/user/passkeys/5f0c…"
 */
export function passkeyPath(authEntity: Segmented, id: string): string {
  return authPath(authEntity, AUTH_ENDPOINTS.passkey.path.replace("{id}", encodeURIComponent(id)));
}

/**
 * The link that signs in with a provider and comes back to `next` (docs/providers.md#the-flow): a
 * browser navigation, never a `fetch`.
 * @example providerSignInPath(model.auth.entity, "google", "/dashboard") // "/api/user/oauth/google?next=%2Fdashboard"
 */
export function providerSignInPath(authEntity: Segmented, provider: string, next?: string): string {
  const path = authPath(authEntity, AUTH_ENDPOINTS.providerSignIn.path.replace("{provider}", encodeURIComponent(provider)));
  return next === undefined ? path : `${path}?next=${encodeURIComponent(next)}`;
}

/**
 * The path of a provider's account of the caller's: `POST` with a provider's id connects one,
 * `DELETE` with an identity's id disconnects it (docs/providers.md).
 * @example identityPath(model.auth.entity, "github") // "/api/user/identities/github"
 */
export function identityPath(authEntity: Segmented, id: string): string {
  return authPath(authEntity, AUTH_ENDPOINTS.identity.path.replace("{id}", encodeURIComponent(id)));
}

/**
 * The path of one API key: `DELETE` revokes it (docs/api-keys.md).
 * @example apiKeyPath(model.auth.entity, "k1") // "/api/user/api-keys/k1"
 */
export function apiKeyPath(authEntity: Segmented, id: string): string {
  return authPath(authEntity, AUTH_ENDPOINTS.apiKey.path.replace("{id}", encodeURIComponent(id)));
}

/**
 * The keys of one user: `GET` lists them (setup role only, for another user).
 * @example userApiKeysPath(model.auth.entity, "u1") // "/api/user/api-keys?userId=u1"
 */
export function userApiKeysPath(authEntity: Segmented, userId: string): string {
  return `${apiPaths(authEntity).apiKeys}?${new URLSearchParams({ userId })}`;
}

/**
 * The path that signs a user out everywhere: `DELETE` revokes every session of `userId` (setup role only).
 * @example userSessionsPath(model.auth.entity, "u1") // "/api/user/sessions?userId=u1"
 */
export function userSessionsPath(authEntity: Segmented, userId: string): string {
  return `${apiPaths(authEntity).sessions}?${new URLSearchParams({ userId })}`;
}

/** The query of a page of security events (docs/events.md). */
export interface EventsQuery {
  readonly userId?: string;
  readonly type?: string;
  /** The `nextCursor` of the previous page. */
  readonly before?: string;
  readonly limit?: number;
}

/**
 * The path of a page of security events: `GET` reads it, newest first.
 * @example eventsPath(model.auth.entity, { type: "login.succeeded", limit: 5 }) // "/api/user/events?type=login.succeeded&limit=5"
 */
export function eventsPath(authEntity: Segmented, query: EventsQuery = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return `${apiPaths(authEntity).events}${search ? `?${search}` : ""}`;
}

/**
 * The endpoints one flag (`auth.endpoints.<flag>`, or one of `auth.mfa`) switches, in a line: their methods, then their paths
 * (a path under another one listed is not repeated), joined by "and": no comma, so a list of labels joined by
 * commas (the wizard's answer line) still says where each ends.
 * @example endpointFlagLabel("setup", { segment: "user" }) // "GET/POST /api/user/setup"
 * @example endpointFlagLabel("passwordReset", { segment: "user" }) // "POST /api/user/forgot-password and reset-password"
 */
export function endpointFlagLabel(flag: EndpointFlag, authEntity: Segmented): string {
  const entries = Object.values(AUTH_ENDPOINTS as Record<string, EndpointEntry>).filter((entry) => entry.flag === flag);
  const methods = [...new Set(entries.flatMap((entry) => Object.keys(entry.operations)))];
  const paths = entries.map((entry) => entry.path);
  const shown = paths.filter((path) => !paths.some((other) => path.startsWith(`${other}/`)));
  return `${methods.join("/")} ${authPath(authEntity, shown.join(" and "))}`;
}
