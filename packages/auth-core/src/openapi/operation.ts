import type { JsonSchema } from "../endpoints/json-schema.js";
import type { ErrorCode } from "../http/errors.js";
import type { PermissionSummary } from "../policy/permission-summary.js";
import { errorResponses } from "./errors.js";

/** The name of the bearer scheme in the document's `securitySchemes`. */
export const BEARER_SCHEME = "bearer";
/** The name of the access cookie's scheme in the document's `securitySchemes` (docs/api.md#cookie-sessions). */
export const COOKIE_SCHEME = "cookie";

/** The name of the API key's scheme in the document's `securitySchemes` (docs/api-keys.md): a second bearer scheme. */
export const API_KEY_SCHEME = "apiKey";

/** Either credential: the bearer header, or the access cookie. */
const SIGNED_IN = [{ [BEARER_SCHEME]: [] }, { [COOKIE_SCHEME]: [] }];
/** Where an API key is accepted too. */
const SIGNED_IN_OR_KEY = [...SIGNED_IN, { [API_KEY_SCHEME]: [] }];

/** One operation of the API, as the document describes it: a row of an operation table. */
export interface OperationSpec {
  readonly method: "get" | "post" | "patch" | "delete";
  /** The path, from `/api`, with `{id}` for a path parameter. */
  readonly path: string;
  readonly operationId: string;
  /** The group it is shown in: `Authentication`, or the entity's name. */
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** Who may call it. */
  readonly access: PermissionSummary;
  /** An API key is accepted (`me` and the entity operations); elsewhere a key is 403 `FORBIDDEN`. */
  readonly apiKey?: boolean;
  /** Query and path parameters (OpenAPI Parameter Objects). */
  readonly parameters?: readonly JsonSchema[];
  /** The JSON body's schema; a body adds 415, 413 and 400 `INVALID_BODY` to the errors. */
  readonly body?: JsonSchema;
  /** A body the operation reads when one is sent, and does without (a sensitive action's `currentPassword`). */
  readonly optionalBody?: JsonSchema;
  /** A body the operation accepts and never reads (`logout`): documented as optional, with no error of its own. */
  readonly ignoresBody?: true;
  readonly success: { readonly status: number; readonly description: string; readonly schema?: JsonSchema };
  /** The codes of the error table this operation may answer with, besides those every request may get. */
  readonly errors: readonly ErrorCode[];
}

/** The request body of an operation that reads none: anything may be sent, and nothing is read. */
const IGNORED_BODY = {
  required: false,
  description: "Not read: any body, or none.",
  content: { "application/json": { schema: {} } },
};

/** What every operation of a domain has in common. */
export interface OperationDefaults {
  /** `auth.type: jwt`: a token that fails verification is 401 on every operation. */
  readonly hasAuth: boolean;
}

const BODY_ERRORS: readonly ErrorCode[] = ["UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "INVALID_BODY"];

/** An OpenAPI Operation Object for `spec`, its errors taken from the error table. */
export function operationObject(spec: OperationSpec, defaults: OperationDefaults): JsonSchema {
  const open = spec.access.permissions.includes("*");
  const errors: ErrorCode[] = [
    ...(defaults.hasAuth ? (["UNAUTHENTICATED"] as const) : []),
    // A cookie may change something only from the app's own origin; a cookie sign-in likewise.
    ...(defaults.hasAuth && spec.method !== "get" ? (["FORBIDDEN_ORIGIN"] as const) : []),
    // An API key where none is accepted.
    ...(defaults.hasAuth && !spec.apiKey ? (["FORBIDDEN"] as const) : []),
    ...(spec.body || spec.optionalBody ? BODY_ERRORS : []),
    ...spec.errors,
    "UNAVAILABLE",
  ];
  const success: JsonSchema = { description: spec.success.description };
  if (spec.success.schema) success.content = { "application/json": { schema: spec.success.schema } };
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: [spec.description, `**Who may call it:** ${spec.access.sentence}.`].filter(Boolean).join("\n\n"),
    "x-domain-auth-permissions": [...spec.access.permissions],
    ...(defaults.hasAuth ? { security: securityOf(spec, open) } : {}),
    ...(spec.parameters?.length ? { parameters: [...spec.parameters] } : {}),
    ...(spec.body ? { requestBody: { required: true, content: { "application/json": { schema: spec.body } } } } : {}),
    ...(spec.optionalBody ? { requestBody: { required: false, content: { "application/json": { schema: spec.optionalBody } } } } : {}),
    ...(spec.ignoresBody ? { requestBody: IGNORED_BODY } : {}),
    responses: { [String(spec.success.status)]: success, ...errorResponses(errors) },
  };
}

/** The credentials an operation takes: none needed when it is open to anyone; an API key where one is accepted. */
function securityOf(spec: OperationSpec, open: boolean): JsonSchema[] {
  const credentials = spec.apiKey ? SIGNED_IN_OR_KEY : SIGNED_IN;
  return open ? [{}, ...credentials] : credentials;
}
