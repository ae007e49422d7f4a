import { AUTH_ROUTES, type AuthRoute, type EntityModel } from "./config/index.js";
import type { AuthServices, RouteContext } from "./context.js";
import { type ApiRequest, pathOf } from "./http/api-request.js";
import { ApiError } from "./http/errors.js";
import type { Reply } from "./http/responses.js";
import { createRecord, deleteRecord, listRecords, readRecord } from "./routes/entity.js";
import { updateRecord } from "./routes/entity-update.js";
import { forgotPassword } from "./routes/forgot-password.js";
import { login } from "./routes/login.js";
import { logout } from "./routes/logout.js";
import { me } from "./routes/me.js";
import { refresh } from "./routes/refresh.js";
import { register } from "./routes/register.js";
import { resetPassword } from "./routes/reset-password.js";
import { listSessions, revokeSession, revokeSessions } from "./routes/sessions.js";
import { setup, setupStatus } from "./routes/setup.js";
import { resendVerification, verifyEmail } from "./routes/verify-email.js";

type AuthHandler = (context: RouteContext, services: AuthServices, request: ApiRequest) => Promise<Reply>;

const HANDLERS: Record<AuthRoute, Partial<Record<string, AuthHandler>>> = {
  login: { POST: login },
  register: { POST: register },
  me: { GET: me },
  setup: { GET: setupStatus, POST: setup },
  logout: { POST: logout },
  refresh: { POST: refresh },
  sessions: { GET: listSessions, DELETE: revokeSessions },
  forgotPassword: { POST: forgotPassword },
  resetPassword: { POST: resetPassword },
  verifyEmail: { POST: verifyEmail },
  resendVerification: { POST: resendVerification },
};

/** Each auth route by the path it is served at under `/api/<auth>/`. */
const ROUTES_BY_PATH = new Map<string, AuthRoute>(Object.entries(AUTH_ROUTES).map(([name, route]) => [route.path, name as AuthRoute]));

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

/**
 * Creates the route matcher: auth endpoints at `/api/<auth>/<endpoint>` (and one session at
 * `/api/<auth>/sessions/<id>`), then each entity's collection and items. Unknown paths and
 * disabled endpoints have no handlers. `extra` paths (`/api/openapi.json`) come first.
 */
export function createRouteMatcher(context: RouteContext, extra: Readonly<Record<string, PathHandlers>> = {}): RouteMatcher {
  const entities = new Map<string, EntityModel>(context.model.entities.map((entity) => [entity.segment, entity]));
  const services = context.services;
  // The handlers of each enabled auth endpoint, made once rather than on every request.
  const authHandlers = new Map<AuthRoute, PathHandlers>();
  if (services) {
    for (const [name, methods] of Object.entries(HANDLERS) as [AuthRoute, Partial<Record<string, AuthHandler>>][]) {
      if (!services.endpoints[AUTH_ROUTES[name].endpoint]) continue;
      authHandlers.set(
        name,
        Object.fromEntries(
          Object.entries(methods).map(([method, handler]) => [
            method,
            (request: ApiRequest) => (handler as AuthHandler)(context, services, request),
          ]),
        ),
      );
    }
  }

  return (path) => {
    if (Object.hasOwn(extra, path)) return extra[path] ?? null;
    const segments = pathSegments(path);
    if (!segments || segments.length > 3) return null;
    const [segment = "", id, sessionId] = segments;

    if (sessionId !== undefined) {
      if (!services || segment !== services.auth.entity.segment || id !== "sessions") return null;
      if (!services.endpoints.sessions) return null;
      return { DELETE: (request) => revokeSession(context, services, request, sessionId) };
    }

    const routeName = id === undefined ? undefined : ROUTES_BY_PATH.get(id);
    const isEndpointName = routeName !== undefined;
    if (services && segment === services.auth.entity.segment && routeName !== undefined) return authHandlers.get(routeName) ?? null;

    const entity = entities.get(segment);
    if (!entity) return null;
    // Under auth.type none no auth endpoint exists: 404 for every method, not a 405 from the item
    // route (no record can have these ids; ours are UUIDs).
    if (!services && isEndpointName) return null;
    if (id === undefined) {
      return {
        GET: (request) => listRecords(context, request, entity),
        POST: (request) => createRecord(context, request, entity),
      };
    }
    return {
      GET: (request) => readRecord(context, request, entity, id),
      PATCH: (request) => updateRecord(context, request, entity, id),
      DELETE: (request) => deleteRecord(context, request, entity, id),
    };
  };
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
