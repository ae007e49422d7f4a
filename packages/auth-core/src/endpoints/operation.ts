import type { z } from "zod";
import { type Authenticated, authenticate, type KeyAuthenticated, requireCaller } from "../accounts/authenticate.js";
import { type EnrollingCaller, enrollingCaller } from "../accounts/enrolling-caller.js";
import { recentSignInBodySchema, requireRecentSignIn } from "../accounts/recent-sign-in.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { readJsonObject } from "../http/body.js";
import { ApiError, enforce } from "../http/errors.js";
import { parseBody } from "../http/parse.js";
import type { Reply } from "../http/responses.js";
import { checkOtherUser, checkSetupRoleOnly } from "../policy/setup-role.js";
import type { AUTH_ENDPOINTS, AuthOperationId, AuthRoute, EndpointOperation, PathParametersOf } from "./catalog.js";
import { parseQuery } from "./query.js";
import { type BodyOf, OPERATION_SCHEMAS, type OperationSchemas } from "./schemas.js";

type Operations<R extends AuthRoute> = (typeof AUTH_ENDPOINTS)[R]["operations"];

/** The catalog entry of one operation, with its literal types (`caller: "bearer"`, `recentSignIn: true`…). */
export type OperationOf<Id extends AuthOperationId> = {
  [R in AuthRoute]: {
    [M in keyof Operations<R>]: Operations<R>[M] extends { operationId: Id } ? Operations<R>[M] : never;
  }[keyof Operations<R>];
}[AuthRoute];

/**
 * Who calls an operation, as its catalog entry says: the holder of a session or of an enrolment
 * `mfaToken` (`enrolment`), a session or an API key (`apiKey`), a session (`bearer`), or anyone, a
 * valid token then being the caller (`none`).
 */
export type CallerOf<Id extends AuthOperationId> =
  OperationOf<Id> extends { readonly enrolment: true }
    ? EnrollingCaller
    : OperationOf<Id> extends { readonly apiKey: true }
      ? Authenticated | KeyAuthenticated
      : OperationOf<Id> extends { readonly caller: "bearer" }
        ? Authenticated
        : Authenticated | null;

type QueryParameterOf<Id extends AuthOperationId> =
  OperationOf<Id> extends { readonly parameters: readonly (infer P)[] } ? Extract<P, { readonly in: "query" }> : never;
type QueryValueOf<P> = P extends { readonly type: "integer" } ? number : P extends { readonly values: readonly (infer V)[] } ? V : string;

/** The query parameters an operation declares, parsed: absent ones are `undefined`. */
export type QueryOf<Id extends AuthOperationId> = {
  readonly [P in QueryParameterOf<Id> as P extends { readonly name: infer Name extends string } ? Name : never]?: QueryValueOf<P>;
};

/** What a handler is called with: everything its catalog entry declares, already checked. */
export interface OperationCall<Id extends AuthOperationId> {
  readonly context: RouteContext;
  readonly services: AuthServices;
  readonly request: ApiRequest;
  /** The caller its entry requires (docs/api.md#login): checked before anything else. */
  readonly caller: CallerOf<Id>;
  /** The body, validated by its schema in `schemas.ts` (after a recent sign-in, `currentPassword` taken out); `undefined` where none is read. */
  readonly body: BodyOf<Id>;
  /** The path's parameters, as sent. */
  readonly path: PathParametersOf<Id>;
  /** The declared query parameters, parsed (400 `INVALID_QUERY` otherwise). */
  readonly query: QueryOf<Id>;
}

/** What runs before the query and the body are read, once the caller is known: a permission, a full queue (503), a state (409). */
export type Admission<Id extends AuthOperationId> = (
  call: Pick<OperationCall<Id>, "context" | "services" | "request" | "caller" | "path">,
) => void | Promise<void>;

/** How an operation runs besides its catalog entry. */
export interface OperationOptions<Id extends AuthOperationId> {
  /** Checked in order after the caller and before the query and the body are read. */
  readonly admit?: readonly Admission<Id>[];
  /**
   * The handler reads the credentials itself (`logout`: the refresh cookie signs out a session whose
   * access cookie has ended); `caller` is then `null`.
   */
  readonly ownCredentials?: true;
}

/** A handler of one operation, with how it runs. */
export interface OperationDefinition<Id extends AuthOperationId> {
  readonly id: Id;
  readonly options: OperationOptions<Id>;
  readonly handler: (call: OperationCall<Id>) => Promise<Reply>;
}

/** What a handler that reads its own credentials is called with: no `caller`. */
export type OwnCredentialsCall<Id extends AuthOperationId> = Omit<OperationCall<Id>, "caller">;

/**
 * Defines the handler of an operation of the catalog. The catalog's entry is enforced before it
 * runs: its caller (401, and 403 for an API key where none is accepted), a recent sign-in (403
 * `REAUTHENTICATION_REQUIRED`), the `admit` checks, its query parameters (400 `INVALID_QUERY`)
 * and its body (415, 413, 400 `INVALID_BODY`), in that order (docs/api.md#errors-in-the-order-they-are-checked).
 *
 * @example export const me = defineOperation("me", async ({ services, caller }) => json(200, { user: … }));
 */
export function defineOperation<Id extends AuthOperationId>(
  id: Id,
  handler: OperationDefinition<NoInfer<Id>>["handler"],
): OperationDefinition<Id>;
export function defineOperation<Id extends AuthOperationId>(
  id: Id,
  options: NoInfer<OperationOptions<Id>> & { readonly ownCredentials: true },
  handler: (call: OwnCredentialsCall<NoInfer<Id>>) => Promise<Reply>,
): OperationDefinition<Id>;
export function defineOperation<Id extends AuthOperationId>(
  id: Id,
  options: NoInfer<OperationOptions<Id>>,
  handler: OperationDefinition<NoInfer<Id>>["handler"],
): OperationDefinition<Id>;
export function defineOperation<Id extends AuthOperationId>(
  id: Id,
  optionsOrHandler: OperationOptions<Id> | OperationDefinition<Id>["handler"],
  handler?: OperationDefinition<Id>["handler"],
): OperationDefinition<Id> {
  if (typeof optionsOrHandler === "function") return { id, options: {}, handler: optionsOrHandler };
  if (!handler) throw new TypeError(`defineOperation("${id}"): a handler is required`);
  return { id, options: optionsOrHandler, handler };
}

type AnyCaller = EnrollingCaller | Authenticated | KeyAuthenticated | null;

/** The caller an operation requires: see {@link CallerOf}. */
function callerOf(context: RouteContext, services: AuthServices, request: ApiRequest, operation: EndpointOperation): Promise<AnyCaller> {
  if (operation.enrolment) return enrollingCaller(context, services, request);
  if (operation.caller === "bearer")
    return operation.apiKey ? requireCaller(context, request, { apiKeys: true }) : requireCaller(context, request);
  // Anyone: the access cookie of a session that has ended must not stop a sign-in, a bad bearer token still does.
  return authenticate(context, request, { cookie: false });
}

/** A sensitive action's caller: a session's, or an enrolment token's (API keys never reach one: they are 403 first). */
function sensitiveCallerOf(caller: AnyCaller): EnrollingCaller | Authenticated {
  if (caller === null || "apiKey" in caller) throw new ApiError("UNAUTHENTICATED");
  return caller;
}

/**
 * The body of an operation: a sensitive action's after its recent sign-in ({@link requireRecentSignIn}),
 * else its schema's, else none (the body is not read).
 */
async function bodyOf(
  call: { context: RouteContext; services: AuthServices; request: ApiRequest; caller: AnyCaller },
  operation: EndpointOperation,
  schema: z.ZodType | null,
  parse: ((raw: Record<string, unknown>, services: AuthServices) => unknown) | undefined,
): Promise<unknown> {
  const { context, services, request } = call;
  const raw = operation.recentSignIn
    ? await requireRecentSignIn(context, services, request, sensitiveCallerOf(call.caller))
    : schema || parse
      ? await readJsonObject(request)
      : null;
  if (raw === null) return undefined;
  if (parse) return parse(raw, services);
  if (schema) return parseBody(schema, raw);
  // A sensitive action that reads nothing else: any other key is a 400.
  parseBody(recentSignInBodySchema, raw);
  return undefined;
}

/** A bound operation: the request and its path's parameters in, the reply out. */
export type BoundOperation = (request: ApiRequest, path: Readonly<Record<string, string>>) => Promise<Reply>;

/**
 * Binds an operation to an instance: its body schema made once, then per request the checks of
 * {@link defineOperation} and the handler.
 */
export function bindOperation(
  context: RouteContext,
  services: AuthServices,
  operation: EndpointOperation,
  definition: OperationDefinition<AuthOperationId>,
): BoundOperation {
  const body = (OPERATION_SCHEMAS as Readonly<Record<AuthOperationId, OperationSchemas>>)[definition.id].body;
  const schema = body?.schema(services.auth, context.model) ?? null;
  const parse = body?.parse;
  const admissions = [
    ...(operation.setupRoleOnly ? [setupRoleOnly] : []),
    ...(operation.setupRoleWith ? [namesOtherUser(operation.setupRoleWith)] : []),
    ...((definition.options.admit ?? []) as readonly Admission<AuthOperationId>[]),
  ];
  const inQuery = (operation.parameters ?? []).filter((parameter) => parameter.in === "query");
  const readsBody = Boolean(operation.recentSignIn || schema || parse);
  const run = definition.handler as (call: OperationCall<AuthOperationId>) => Promise<Reply>;
  const identify = (request: ApiRequest): Promise<AnyCaller> =>
    definition.options.ownCredentials ? Promise.resolve(null) : callerOf(context, services, request, operation);
  if (admissions.length === 0 && inQuery.length === 0 && !readsBody) {
    // The hot paths (`me`, the lists): the caller, then the handler, with no step more.
    return (request, path) =>
      identify(request).then((caller) =>
        run({ context, services, request, caller: caller as never, body: undefined as never, path: path as never, query: NO_QUERY }),
      );
  }
  return async (request, path) => {
    const caller = await identify(request);
    const early = { context, services, request, caller: caller as never, path: path as never };
    for (const admit of admissions) await admit(early);
    const query = inQuery.length === 0 ? NO_QUERY : parseQuery(new URL(request.url).searchParams, inQuery);
    const parsed = readsBody ? await bodyOf(early, operation, schema, parse) : undefined;
    return run({ ...early, body: parsed as never, path: path as never, query: query as never });
  };
}

/**
 * The entry's `setupRoleWith`: a request that names another user with that query parameter needs
 * the setup role (403 before the rest of the query is read); anyone may name themselves.
 */
function namesOtherUser(parameter: string): Admission<AuthOperationId> {
  return ({ services, request, caller }) => {
    const { caller: who } = caller as Authenticated;
    const named = new URL(request.url).searchParams.get(parameter);
    enforce(checkOtherUser(services.auth, who, named, `name another user (${parameter}) here`));
  };
}

/** The entry's `setupRoleOnly`: anyone but the setup role is 403 before the query is read. */
const setupRoleOnly: Admission<AuthOperationId> = ({ services, caller }) => {
  enforce(checkSetupRoleOnly(services.auth, (caller as Authenticated).caller));
};

/** The query of an operation that declares no query parameter. */
const NO_QUERY: QueryOf<never> = Object.freeze({});

/** An operation that will hash or compare a password: 503 (with `Retry-After`) while the hash queue is full, before the body is read. */
export function roomInHashQueue({ services }: { readonly services: AuthServices }): void {
  services.hasher.ensureRoom();
}
