import { AUTH_ROUTES, type AuthRoute, type EntityModel } from "./config/index.js";
import type { AuthServices, RouteContext } from "./context.js";
import { ApiError } from "./http/errors.js";
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

type AuthHandler = (context: RouteContext, services: AuthServices, request: Request) => Promise<Response>;

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

const COLLECTION_METHODS = ["GET", "POST"];
const ITEM_METHODS = ["GET", "PATCH", "DELETE"];

function methodNotAllowed(allowed: readonly string[]): ApiError {
  const withHead = allowed.includes("GET") ? [...allowed, "HEAD"] : allowed;
  return new ApiError("METHOD_NOT_ALLOWED", { headers: { allow: withHead.join(", ") } });
}

function pathSegments(url: URL): string[] | null {
  if (!url.pathname.startsWith("/api/")) return null;
  try {
    return url.pathname.slice("/api/".length).replace(/\/$/, "").split("/").map(decodeURIComponent);
  } catch {
    return null;
  }
}

/**
 * Creates the request router: auth endpoints at `/api/<auth>/<endpoint>` (and one session at
 * `/api/<auth>/sessions/<id>`), then each entity's collection and items. Unknown paths and
 * disabled endpoints are 404, wrong methods 405.
 */
export function createRouter(context: RouteContext): (request: Request) => Promise<Response> {
  const entities = new Map<string, EntityModel>(context.model.entities.map((entity) => [entity.segment, entity]));
  const services = context.services;

  return async (request) => {
    const segments = pathSegments(new URL(request.url));
    if (!segments || segments.length > 3) throw new ApiError("NOT_FOUND");
    const [segment = "", id, sessionId] = segments;
    const method = request.method.toUpperCase();

    if (sessionId !== undefined) {
      if (!services || segment !== services.auth.entity.segment || id !== "sessions") throw new ApiError("NOT_FOUND");
      if (!services.endpoints.sessions || sessionId === "") throw new ApiError("NOT_FOUND");
      if (method !== "DELETE") throw methodNotAllowed(["DELETE"]);
      return revokeSession(context, services, request, sessionId);
    }

    const routeName = id === undefined ? undefined : ROUTES_BY_PATH.get(id);
    const isEndpointName = routeName !== undefined;
    if (services && segment === services.auth.entity.segment && routeName !== undefined) {
      if (!services.endpoints[AUTH_ROUTES[routeName].endpoint]) throw new ApiError("NOT_FOUND");
      const handler = HANDLERS[routeName][method];
      if (!handler) throw methodNotAllowed(Object.keys(HANDLERS[routeName]));
      return handler(context, services, request);
    }

    const entity = entities.get(segment);
    if (!entity || id === "") throw new ApiError("NOT_FOUND");
    // Under auth.type none no auth endpoint exists: 404 for every method, not a 405 from the item
    // route (no record can have these ids; ours are UUIDs).
    if (!services && isEndpointName) throw new ApiError("NOT_FOUND");
    if (id === undefined) {
      if (method === "GET") return listRecords(context, request, entity);
      if (method === "POST") return createRecord(context, request, entity);
      throw methodNotAllowed(COLLECTION_METHODS);
    }
    if (method === "GET") return readRecord(context, request, entity, id);
    if (method === "PATCH") return updateRecord(context, request, entity, id);
    if (method === "DELETE") return deleteRecord(context, request, entity, id);
    throw methodNotAllowed(ITEM_METHODS);
  };
}
