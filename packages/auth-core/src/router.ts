import type { EntityModel } from "./config/index.js";
import { ORGANIZATIONS_SEGMENT } from "./config/vocabulary.js";
import type { AuthServices, RouteContext } from "./context.js";
import {
  AUTH_ENDPOINTS,
  type AuthOperationId,
  type EndpointEntry,
  type EndpointMethod,
  type EndpointOperation,
  isServed,
} from "./endpoints/catalog.js";
import { bindOperation, type OperationDefinition } from "./endpoints/operation.js";
import { type ApiRequest, pathOf } from "./http/api-request.js";
import { ApiError } from "./http/errors.js";
import type { Reply } from "./http/responses.js";
import { createRecord, deleteRecord, listRecords, readRecord } from "./routes/entity.js";
import { updateRecord } from "./routes/entity-update.js";
import { AUTH_OPERATIONS } from "./routes/index.js";

/** The path parameters of a request, by the names its entry's path gives them (`{id}`). */
type PathParameters = Readonly<Record<string, string>>;

/** The handlers of one path, by method (upper case). */
export type PathHandlers = Readonly<Partial<Record<string, (request: ApiRequest) => Promise<Reply>>>>;

/**
 * Finds the handlers of a request's path as sent ({@link pathOf}); `null` for an unknown path or a
 * disabled endpoint (404).
 */
export type RouteMatcher = (path: string) => PathHandlers | null;

/** The methods a path answers, as `Allow` and a CORS preflight list them: `HEAD` wherever `GET` is. */
export function allowedMethods(handlers: PathHandlers): string[] {
  const methods = Object.keys(handlers);
  return methods.includes("GET") ? [...methods, "HEAD"] : methods;
}

/**
 * The segments after `/api/`, compared as sent: a percent-encoded name is not that name, and an
 * empty, `.` or `..` segment names nothing (no path is normalized into another).
 */
function pathSegments(path: string): string[] | null {
  if (!path.startsWith("/api/")) return null;
  const segments = path.slice("/api/".length).split("/");
  return segments.some((segment) => segment === "" || segment === "." || segment === "..") ? null : segments;
}

/** An auth endpoint's path as segments (`{name}` a parameter), and its handlers: `null` while its flag is off. */
interface AuthPathRoute {
  readonly pattern: readonly string[];
  readonly handlers: ((parameters: PathParameters) => PathHandlers) | null;
}

/** The parameters of `segments` when they fit `pattern`; `null` when they do not. */
function fit(pattern: readonly string[], segments: readonly string[]): PathParameters | null {
  if (pattern.length !== segments.length) return null;
  const parameters: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index] as string;
    if (part.startsWith("{")) parameters[part.slice(1, -1)] = segment;
    else if (part !== segment) return null;
  }
  return parameters;
}

function bindHandlers(context: RouteContext, services: AuthServices, entry: EndpointEntry): (parameters: PathParameters) => PathHandlers {
  // Each operation is bound once: its body schema made, its checks in place; a request only brings its path's parameters.
  const operations = (Object.entries(entry.operations) as [EndpointMethod, EndpointOperation][]).map(([method, operation]) => {
    const definition = AUTH_OPERATIONS[operation.operationId as AuthOperationId] as OperationDefinition<AuthOperationId>;
    return [method, bindOperation(context, services, operation, definition)] as const;
  });
  const bind = (parameters: PathParameters): PathHandlers =>
    Object.fromEntries(operations.map(([method, run]) => [method, (request: ApiRequest) => run(request, parameters)]));
  if (entry.path.includes("{")) return bind;
  // A fixed path's handlers are made once rather than on every request.
  const fixed = bind({});
  return () => fixed;
}

/**
 * The auth endpoints of the catalog under one base (`/api/<auth>/`, or `/api/orgs/`); those whose
 * flag is off (or every one, under `auth.type: none`) have no handlers.
 */
function authRoutesOf(context: RouteContext, base: EndpointEntry["base"]): AuthPathRoute[] {
  const services = context.services;
  return (Object.values(AUTH_ENDPOINTS) as EndpointEntry[])
    .filter((entry) => entry.base === base)
    .map((entry) => ({
      pattern: entry.path === "" ? [] : entry.path.split("/"),
      handlers: services && isServed(entry, services.endpoints) ? bindHandlers(context, services, entry) : null,
    }));
}

/** The handlers of an entity's collection (`id` absent) or of one record; a tenant entity's within the path's organization. */
function entityHandlers(context: RouteContext, entity: EntityModel, id: string | undefined, organizationId?: string): PathHandlers {
  const within = organizationId === undefined ? {} : { organizationId };
  if (id === undefined) {
    return {
      GET: (request) => listRecords(context, request, entity, within),
      POST: (request) => createRecord(context, request, entity, within),
    };
  }
  return {
    GET: (request) => readRecord(context, request, entity, id, within),
    PATCH: (request) => updateRecord(context, request, entity, id, within),
    DELETE: (request) => deleteRecord(context, request, entity, id, within),
  };
}

/** The first of `routes` whose pattern fits `segments`: its handlers (`null` while switched off), or `undefined` when none fits. */
function firstFit(routes: readonly AuthPathRoute[], segments: readonly string[]): PathHandlers | null | undefined {
  for (const route of routes) {
    const parameters = fit(route.pattern, segments);
    if (parameters) return route.handlers?.(parameters) ?? null;
  }
  return undefined;
}

/**
 * Creates the route matcher: the auth endpoints of the catalog under `/api/<auth>/` (they take
 * precedence over the auth entity's items), then each entity's collection and items. Unknown paths
 * and disabled endpoints have no handlers. `extra` paths (`/api/openapi.json`) come first.
 */
export function createRouteMatcher(context: RouteContext, extra: Readonly<Record<string, PathHandlers>> = {}): RouteMatcher {
  // A tenant entity lives only under its organization: /api/<segment> is 404 for it.
  const entities = new Map<string, EntityModel>(
    context.model.entities.filter((entity) => !entity.tenant).map((entity) => [entity.segment, entity]),
  );
  const tenants = new Map<string, EntityModel>(
    context.model.entities.filter((entity) => entity.tenant).map((entity) => [entity.segment, entity]),
  );
  const authSegment = context.services?.auth.entity.segment;
  const authRoutes = authRoutesOf(context, undefined);
  const organizations = context.services?.endpoints.organizations ? authRoutesOf(context, ORGANIZATIONS_SEGMENT) : null;

  return (path) => {
    if (Object.hasOwn(extra, path)) return extra[path] ?? null;
    const segments = pathSegments(path);
    if (!segments) return null;
    const [segment = "", ...rest] = segments;
    // Under auth.type none no auth endpoint exists, behind any entity: 404 for every method, not a
    // 405 from the item route (no record can have these ids; ours are UUIDs).
    if (authSegment === undefined || segment === authSegment) {
      const found = firstFit(authRoutes, rest);
      if (found !== undefined) return found;
    }
    if (organizations && segment === ORGANIZATIONS_SEGMENT) return organizationHandlers(context, organizations, tenants, rest);
    const entity = entities.get(segment);
    if (!entity || rest.length > 1) return null;
    return entityHandlers(context, entity, rest[0]);
  };
}

/** Under `/api/orgs/`: the organization endpoints, then a tenant entity's collection and items in the path's organization. */
function organizationHandlers(
  context: RouteContext,
  routes: readonly AuthPathRoute[],
  tenants: ReadonlyMap<string, EntityModel>,
  rest: readonly string[],
): PathHandlers | null {
  const found = firstFit(routes, rest);
  if (found !== undefined) return found;
  const [organizationId, segment = "", id, ...more] = rest;
  const entity = tenants.get(segment);
  if (organizationId === undefined || !entity || more.length > 0) return null;
  return entityHandlers(context, entity, id, organizationId);
}

/**
 * Creates the request router over a {@link RouteMatcher}: 404 `NOT_FOUND` for a path without
 * handlers, 405 `METHOD_NOT_ALLOWED` (with `Allow`) for a method the path does not answer.
 */
export function createRouter(match: RouteMatcher): (request: ApiRequest) => Promise<Reply> {
  // Not an async function: it hands the handler's promise on as it is (a refusal is a rejected one).
  return (request) => {
    const handlers = match(pathOf(request.url));
    if (!handlers) return Promise.reject(new ApiError("NOT_FOUND"));
    const handler = handlers[request.method.toUpperCase()];
    if (!handler) return Promise.reject(new ApiError("METHOD_NOT_ALLOWED", { headers: { allow: allowedMethods(handlers).join(", ") } }));
    return handler(request);
  };
}
