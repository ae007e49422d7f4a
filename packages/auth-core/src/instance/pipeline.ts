import type { RouteContext } from "../context.js";
import { OPENAPI_PATH } from "../endpoints/api-paths.js";
import { type ApiRequest, pathOf, withMethod } from "../http/api-request.js";
import type { CorsPolicy } from "../http/cors.js";
import { ApiError } from "../http/errors.js";
import { errorResponse, type Reply, toResponse } from "../http/responses.js";
import { openApiDocument } from "../openapi/document.js";
import { HashQueueFullError } from "../password/hasher.js";
import { allowedMethods, createRouteMatcher, createRouter, type RouteMatcher } from "../router.js";
import { openApiRoute } from "../routes/openapi.js";
import { isUnavailableError } from "../store/errors.js";

type Answer = (request: ApiRequest) => Promise<Reply>;

/** How the pipeline answers around the routes. */
export interface PipelineOptions {
  /** `null`: same origin only. */
  readonly cors: CorsPolicy | null;
  /** Receives unexpected errors (answered with 500). */
  readonly onError: (error: unknown) => void;
}

/** One instance's request pipeline, for Web requests and for adapters that write replies themselves. */
export interface Pipeline {
  readonly answer: Answer;
  readonly handle: (request: Request) => Promise<Response>;
}

/** The reply to a thrown error: its own for an `ApiError`, 503 for an unavailable store or a full hash queue, else a logged 500. */
function errorReply(error: unknown, onError: (error: unknown) => void): Reply {
  if (error instanceof ApiError) return errorResponse(error);
  if (isUnavailableError(error)) return errorResponse(new ApiError("UNAVAILABLE", { cause: error }));
  // A full hash queue drains in about one hashing time per queued task and thread: come back shortly.
  if (error instanceof HashQueueFullError)
    return errorResponse(new ApiError("UNAVAILABLE", { headers: { "retry-after": "1" }, cause: error }));
  onError(error);
  return errorResponse(new ApiError("INTERNAL_ERROR", { cause: error }));
}

/** HEAD, in this one place: answered as GET would be, without the body. */
function withHead(answer: Answer): Answer {
  // Plain functions where they only pass a promise on: each async layer costs a request microtasks.
  return (request) => {
    if (request.method.toUpperCase() !== "HEAD") return answer(request);
    return answer(withMethod(request, "GET")).then((reply) => ({ ...reply, body: null }));
  };
}

/** Preflights answered before routing, with the path's methods; every other answer decorated. */
function withCors(answer: Answer, match: RouteMatcher, cors: CorsPolicy): Answer {
  return async (request) => {
    const handlers = match(pathOf(request.url));
    const preflight = cors.preflight(request, handlers && allowedMethods(handlers));
    return preflight ?? cors.decorate(request, await answer(request));
  };
}

/**
 * The one request pipeline of an instance: CORS, then HEAD, then the router (404, 405, the
 * handler), every thrown error turned into its reply. `/api/openapi.json` serves the document of
 * the endpoints this instance serves, built once.
 */
export function createPipeline(context: RouteContext, options: PipelineOptions): Pipeline {
  const services = context.services;
  const document = openApiDocument(context.model, {
    endpoints: services?.endpoints ?? null,
    ...(services ? { accessCookie: services.cookies.names.access } : {}),
  });
  const match = createRouteMatcher(context, { [OPENAPI_PATH]: { GET: openApiRoute(document) } });
  const route = createRouter(match);
  const routed: Answer = async (request) => {
    try {
      return await route(request);
    } catch (error) {
      return errorReply(error, options.onError);
    }
  };
  const answer = options.cors ? withCors(withHead(routed), match, options.cors) : withHead(routed);
  return { answer, handle: async (request) => toResponse(await answer(request)) };
}
