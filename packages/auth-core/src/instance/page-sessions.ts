import { authenticate, bearerToken } from "../accounts/authenticate.js";
import { requestEvents } from "../accounts/security-events.js";
import { sessionTokens } from "../accounts/signed-in-body.js";
import type { Operation } from "../config/vocabulary.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import type { Organization } from "../organizations/organization-view.js";
import { organizationView } from "../organizations/organization-view.js";
import { isApiKey } from "../policy/api-keys.js";
import { mayPerform } from "../policy/authorize.js";
import { serializeRecord } from "../records/serialize.js";
import type { SessionWithin } from "../sessions/sessions.js";

/** A request's headers, as a framework hands them to server code (a Web `Headers` is one). */
export type RequestHeaders = Pick<Headers, "get" | "has">;

/**
 * The profile `me` answers: the auth entity's record as the API serializes it (never a hash): its
 * `id`, `email` and `role` (`null` for none), the fields domain.yaml declares, and timestamps.
 */
export type Profile = Readonly<Record<string, unknown>> & {
  readonly id: string;
  readonly email: string;
  readonly role: string | null;
};

/** New session cookies for a page request whose access cookie had expired. */
export interface SessionRenewal {
  /** The `Set-Cookie` values for the response. */
  readonly setCookies: readonly string[];
  /** The request's `Cookie` header with the new tokens in place of the old, for the page to render with. */
  readonly cookieHeader: string;
}

/** What a project's server code asks of an instance about the request it is answering (docs/api.md#cookie-sessions). */
export interface PageSessions {
  /**
   * The profile `me` would answer for a request with these headers (the `Authorization` header, or
   * else the access cookie); `null` when signed out, or the token is expired, revoked or no longer
   * matches its user, or the cookie came with an `Origin` other than the app's. One database read.
   * @example const user = await auth.currentUser(request.headers);
   */
  currentUser(headers: RequestHeaders): Promise<Profile | null>;
  /**
   * For a page request whose access cookie is missing or expired while its refresh cookie lives:
   * refreshes the session and returns the new cookies; `null` when there is nothing to renew (a
   * valid access cookie is checked without reading the database) or the refresh is refused, as the
   * API's refresh refuses it (a refresh token already spent, by another tab's renewal too).
   */
  renewSession(headers: RequestHeaders): Promise<SessionRenewal | null>;
  /**
   * docs/api.md#permissions's decision, as the API takes it: may `user` (what {@link currentUser} returned)
   * perform `operation` on the entity named `entity` in domain.yaml, on `record` when given?
   * @throws {TypeError} for an entity name domain.yaml does not have.
   * @example auth.can(user, "update", "Post", post)
   */
  can(
    user: Profile | null,
    operation: Operation,
    entity: string,
    record?: Readonly<Record<string, unknown>>,
    options?: { readonly membership?: PageMembership | null },
  ): boolean;
  /**
   * `user`'s membership of an organization (docs/organizations.md): the organization and their role in
   * it, read from the database now; `null` when signed out, not a member, or the organization does
   * not exist (or the domain has no organizations).
   * @example const membership = await auth.membership(user, params.orgId);
   */
  membership(user: Profile | null, organizationId: string): Promise<PageMembership | null>;
}

/** A signed-in user's place in one organization, as pages read it. */
export interface PageMembership {
  readonly organization: Organization;
  /** Their organization role. */
  readonly role: string;
}

/** A GET of the request's headers: what {@link authenticate} reads. */
function readOnlyRequest(headers: RequestHeaders): ApiRequest {
  return { method: "GET", url: "http://localhost/", headers, body: null };
}

/**
 * The session questions of the project's own pages, route handlers and server actions, answered
 * over the same rules as the API: the token of the `Authorization` header or the access cookie.
 */
export function createPageSessions(context: RouteContext): PageSessions {
  const services = context.services;
  return {
    async currentUser(headers) {
      if (!services) return null;
      const request = readOnlyRequest(headers);
      // The method is not known here, so the rule of the API (docs/api.md#cookie-sessions) is kept the one way that
      // needs none: a cookie another origin sent stands for no one. Browsers send `Origin` with every
      // request but GET and HEAD, and with no navigation, so a forged form or fetch of a same-site page
      // (a sibling subdomain) reaches a project's own route handler signed out, and links still work.
      if (bearerToken(request) === null && headers.has("origin") && !services.cookies.isSameOrigin(request)) return null;
      // An API key is for programs calling the API; a page or the project's own code sees no one.
      const bearer = bearerToken(request);
      if (bearer !== null && isApiKey(bearer)) return null;
      try {
        const authenticated = await authenticate(context, request);
        return authenticated ? (serializeRecord(services.auth.entity, authenticated.user) as Profile) : null;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    async renewSession(headers) {
      if (!services?.endpoints.refresh) return null;
      const request = readOnlyRequest(headers);
      const events = requestEvents(context, services, request);
      const onReuse: SessionWithin = (trx, session) =>
        events.write(trx, { type: "session.reuse_detected", userId: session.userId, sessionId: session.id });
      return renew(services, request, onReuse);
    },
    can(user, operation, entityName, record, options = {}) {
      const entity = context.model.entities.find((candidate) => candidate.name === entityName);
      if (!entity) throw new TypeError(`domain.yaml has no entity named '${entityName}'`);
      const caller = user && context.services ? { id: user.id, role: user.role } : null;
      const membership = options.membership ? { role: options.membership.role } : null;
      return mayPerform(entity, operation, caller, { open: context.services === null, membership, ...(record ? { record } : {}) });
    },
    async membership(user, organizationId) {
      const organizations = services?.organizations;
      if (!user || !organizations) return null;
      const access = await organizations.store.access(organizationId, user.id);
      if (!access?.role) return null;
      const organization = await organizations.store.find(organizationId);
      return organization ? { organization: organizationView(organization), role: access.role } : null;
    },
  };
}

/**
 * Renews a page request's session from its refresh cookie when its access cookie is missing or
 * expired; `null` when there is nothing to renew (a valid access cookie costs no database read) or
 * the refresh is refused. Each renewal is a refresh of its own, under the API's rules: a refresh
 * token works once, so of page requests that carry the same one, at once or within the reuse grace,
 * one is renewed and the others are refused (without revoking, within the grace). A renewal is
 * never handed to another request: a copy of the spent cookie gets no token, as the API answers it
 * 401; past the grace, the spent token is a replay and revokes the session.
 */
async function renew(services: AuthServices, request: ApiRequest, onReuse: SessionWithin): Promise<SessionRenewal | null> {
  const { cookies } = services;
  const access = cookies.accessToken(request);
  if (access !== null && (await services.tokens.verify(access))) return null;
  const refreshToken = cookies.refreshToken(request);
  if (refreshToken === null) return null;
  const result = await services.sessions.refresh(services.auth.entity, refreshToken, { onReuse });
  if (!result.refreshed) return null;
  const tokens = await sessionTokens(services, result.user, result.issued);
  // Built without re-serializing the page's other cookies: a name or value the cookie library would
  // refuse must not lose the tokens just issued (their refresh token would then be replayed).
  const cookieHeader = cookies.replaceInHeader(request.headers.get("cookie"), tokens);
  return { setCookies: cookies.sessionCookies(tokens), cookieHeader };
}
