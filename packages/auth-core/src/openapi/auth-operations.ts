import { loginBodySchema, refreshBodySchema } from "../accounts/auth-body-schemas.js";
import type { AuthModel } from "../config/index.js";
import type { ErrorCode } from "../http/errors.js";
import type { PermissionSummary } from "../policy/permission-summary.js";
import { bodySchema, IGNORED_KEYS } from "../records/body-schema.js";
import { MAIL_ROUTE_SPECS } from "../routes/mail-bodies.js";
import type { OperationSpec } from "./operation.js";
import { recordSchemaNames } from "./records.js";
import { inputSchemaOf, type JsonSchema, objectOf, ref } from "./schema.js";

/** The name of the signed-in body's schema (tokens and the profile). */
export const SIGNED_IN_SCHEMA = "signedIn";
/** The name of a session's schema (CONTRACT 10). */
export const SESSION_SCHEMA = "session";

/** Anyone may call it; a token, when sent, must still be valid. */
const ANYONE: PermissionSummary = { permissions: ["*"], sentence: "anyone, signed in or not" };
/** Any caller with a valid token. */
const SIGNED_IN: PermissionSummary = { permissions: ["@Authenticated"], sentence: "any signed-in user" };

/**
 * One auth endpoint in the document: a row of {@link AUTH_OPERATIONS}. Adding an endpoint to the
 * API is adding its row here (next to its handler in the router).
 */
export interface AuthOperation {
  /** Whether the domain serves it (its `auth.endpoints` flag). */
  readonly enabled: (auth: AuthModel) => boolean;
  readonly method: OperationSpec["method"];
  /** The path under `/api/<auth>/`: `login`, `sessions/{id}`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: PermissionSummary | ((auth: AuthModel) => PermissionSummary);
  readonly parameters?: readonly JsonSchema[];
  /** The JSON body's schema, built from the zod schema that validates it. */
  readonly body?: (auth: AuthModel) => JsonSchema;
  readonly success: { readonly status: number; readonly description: string; readonly schema?: (auth: AuthModel) => JsonSchema };
  readonly errors: readonly ErrorCode[];
}

/** The body of register and setup: the auth entity's create body as `parseSignUpBody` reads it (no `role`; other keys ignored). */
function signUpBody(auth: AuthModel): JsonSchema {
  return inputSchemaOf(bodySchema(auth.entity, "create", { omit: ["role"], unknownKeys: "strip" }), { omit: IGNORED_KEYS });
}

function profile(auth: AuthModel): JsonSchema {
  return objectOf({ user: ref(recordSchemaNames(auth.entity).record) });
}

const signedIn = (): JsonSchema => ref(SIGNED_IN_SCHEMA);

const ID_PARAMETER: JsonSchema = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "A session's id." };

/** Every auth and session endpoint (CONTRACT 3.1 and 10), in the order the document lists them. */
export const AUTH_OPERATIONS: readonly AuthOperation[] = [
  {
    enabled: (auth) => auth.endpoints.login,
    method: "post",
    path: "login",
    operationId: "login",
    summary: "Sign in",
    description:
      "Starts a session: an access token and a refresh token. Repeated failures lock the email (and the client address) for a while: 429 with `Retry-After`.",
    access: ANYONE,
    body: () => inputSchemaOf(loginBodySchema),
    success: { status: 200, description: "Signed in", schema: signedIn },
    errors: ["INVALID_CREDENTIALS", "EMAIL_NOT_VERIFIED", "TOO_MANY_ATTEMPTS"],
  },
  {
    enabled: (auth) => auth.endpoints.register,
    method: "post",
    path: "register",
    operationId: "register",
    summary: "Create an account",
    description: "A new user with the default role. `role` and other keys that are not fields are ignored.",
    access: ANYONE,
    body: signUpBody,
    success: { status: 201, description: "The new user", schema: profile },
    errors: ["EMAIL_TAKEN", "TOO_MANY_ATTEMPTS"],
  },
  {
    enabled: (auth) => auth.endpoints.me,
    method: "get",
    path: "me",
    operationId: "me",
    summary: "Your profile",
    access: SIGNED_IN,
    success: { status: 200, description: "The caller's profile", schema: profile },
    errors: [],
  },
  {
    enabled: (auth) => auth.endpoints.setup,
    method: "get",
    path: "setup",
    operationId: "setupStatus",
    summary: "Whether setup is pending",
    access: ANYONE,
    success: {
      status: 200,
      description: "`setupRequired` until the first user exists; `setupTokenRequired` while it is and the server needs a setup token",
      schema: () =>
        objectOf({ setupRequired: { type: "boolean" }, setupTokenRequired: { type: "boolean" } }, { optional: ["setupTokenRequired"] }),
    },
    errors: [],
  },
  {
    enabled: (auth) => auth.endpoints.setup,
    method: "post",
    path: "setup",
    operationId: "setup",
    summary: "Create the first administrator",
    description: "Creates the first user, with the setup role, and signs them in. 409 once any user exists.",
    access: ANYONE,
    body: (auth) => {
      const body = signUpBody(auth);
      (body.properties as Record<string, JsonSchema>).setupToken = {
        type: "string",
        description: "Required when the server was started with `SETUP_TOKEN` (then 403 without it).",
      };
      return body;
    },
    success: { status: 201, description: "The administrator, signed in", schema: signedIn },
    errors: ["FORBIDDEN", "SETUP_COMPLETE"],
  },
  {
    enabled: (auth) => auth.endpoints.logout,
    method: "post",
    path: "logout",
    operationId: "logout",
    summary: "Sign out",
    description: "Revokes the caller's session: its access and refresh tokens stop working on every instance. Any body is ignored.",
    access: SIGNED_IN,
    success: { status: 204, description: "Signed out" },
    errors: [],
  },
  {
    enabled: (auth) => auth.endpoints.refresh,
    method: "post",
    path: "refresh",
    operationId: "refresh",
    summary: "Renew the tokens",
    description:
      "Spends the refresh token and issues a new pair. A spent token presented again revokes its session (but within 10 seconds of its rotation).",
    access: ANYONE,
    body: () => inputSchemaOf(refreshBodySchema),
    success: { status: 200, description: "New tokens and the user as they are now", schema: signedIn },
    errors: ["INVALID_REFRESH_TOKEN"],
  },
  {
    enabled: (auth) => auth.endpoints.sessions,
    method: "get",
    path: "sessions",
    operationId: "listSessions",
    summary: "Your signed-in sessions",
    access: SIGNED_IN,
    success: {
      status: 200,
      description: "The caller's active sessions, newest first",
      schema: () => objectOf({ items: { type: "array", items: ref(SESSION_SCHEMA) } }),
    },
    errors: [],
  },
  {
    enabled: (auth) => auth.endpoints.sessions,
    method: "delete",
    path: "sessions",
    operationId: "revokeSessions",
    summary: "Sign out other sessions, or a user everywhere",
    description:
      "Without `userId`: revokes every session of the caller but the current one. With `userId`: every session of that user (setup role only).",
    access: (auth) => ({ permissions: ["@Authenticated"], sentence: `any signed-in user; with \`userId\`, ${auth.setupRole} only` }),
    parameters: [
      { name: "userId", in: "query", required: false, schema: { type: "string" }, description: "Sign this user out everywhere." },
    ],
    success: { status: 204, description: "Revoked" },
    errors: ["FORBIDDEN", "NOT_FOUND"],
  },
  {
    enabled: (auth) => auth.endpoints.sessions,
    method: "delete",
    path: "sessions/{id}",
    operationId: "revokeSession",
    summary: "Sign out one session",
    access: SIGNED_IN,
    parameters: [ID_PARAMETER],
    success: { status: 204, description: "Revoked" },
    errors: ["NOT_FOUND"],
  },
  {
    enabled: (auth) => auth.endpoints.passwordReset,
    method: "post",
    path: "forgot-password",
    operationId: "forgotPassword",
    summary: "E-mail a password reset link",
    description:
      "202 for every well-formed email, known or not; a known user is e-mailed a link to `/reset-password`. Exists only where the server sends e-mail.",
    access: ANYONE,
    body: () => inputSchemaOf(MAIL_ROUTE_SPECS.forgotPassword.body),
    success: { status: MAIL_ROUTE_SPECS.forgotPassword.success, description: "Accepted", schema: () => objectOf({}) },
    errors: MAIL_ROUTE_SPECS.forgotPassword.errors,
  },
  {
    enabled: (auth) => auth.endpoints.passwordReset,
    method: "post",
    path: "reset-password",
    operationId: "resetPassword",
    summary: "Choose a new password with a reset or invitation link's token",
    description: "Signs in, revokes every other session of the user and marks the email verified. A token works once.",
    access: ANYONE,
    body: () => inputSchemaOf(MAIL_ROUTE_SPECS.resetPassword.body),
    success: { status: MAIL_ROUTE_SPECS.resetPassword.success, description: "Signed in", schema: signedIn },
    errors: MAIL_ROUTE_SPECS.resetPassword.errors,
  },
  {
    enabled: (auth) => auth.endpoints.verifyEmail,
    method: "post",
    path: "verify-email",
    operationId: "verifyEmail",
    summary: "Confirm an email address with a verification link's token",
    access: ANYONE,
    body: () => inputSchemaOf(MAIL_ROUTE_SPECS.verifyEmail.body),
    success: { status: MAIL_ROUTE_SPECS.verifyEmail.success, description: "Confirmed", schema: profile },
    errors: MAIL_ROUTE_SPECS.verifyEmail.errors,
  },
  {
    enabled: (auth) => auth.endpoints.verifyEmail,
    method: "post",
    path: "resend-verification",
    operationId: "resendVerification",
    summary: "E-mail a new verification link",
    description: "202 for every well-formed email, known or not.",
    access: ANYONE,
    body: () => inputSchemaOf(MAIL_ROUTE_SPECS.resendVerification.body),
    success: { status: MAIL_ROUTE_SPECS.resendVerification.success, description: "Accepted", schema: () => objectOf({}) },
    errors: MAIL_ROUTE_SPECS.resendVerification.errors,
  },
];

/** The operations of the enabled auth endpoints of a domain. */
export function authOperationSpecs(auth: AuthModel): OperationSpec[] {
  return AUTH_OPERATIONS.filter((operation) => operation.enabled(auth)).map((operation) => ({
    method: operation.method,
    path: `/api/${auth.entity.segment}/${operation.path}`,
    operationId: operation.operationId,
    tag: "Authentication",
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    access: typeof operation.access === "function" ? operation.access(auth) : operation.access,
    ...(operation.parameters ? { parameters: operation.parameters } : {}),
    ...(operation.body ? { body: operation.body(auth) } : {}),
    success: {
      status: operation.success.status,
      description: operation.success.description,
      ...(operation.success.schema ? { schema: operation.success.schema(auth) } : {}),
    },
    errors: operation.errors,
  }));
}

/** The tokens of a session, as a body that signs in carries them. */
export const TOKEN_PROPERTIES: Readonly<Record<string, JsonSchema>> = {
  token: { type: "string", description: "The access token: send it as `Authorization: Bearer <token>`." },
  tokenType: { type: "string", const: "Bearer" },
  expiresIn: { type: "integer", description: "Seconds until the access token expires." },
  refreshToken: { type: "string", description: "Spend it at `refresh` for a new pair." },
  refreshExpiresIn: { type: "integer", description: "Seconds until the refresh token expires." },
};

/** The schemas the auth operations refer to: the signed-in body and a session. */
export function authSchemas(auth: AuthModel): Record<string, JsonSchema> {
  return {
    [SIGNED_IN_SCHEMA]: objectOf({ ...TOKEN_PROPERTIES, user: ref(recordSchemaNames(auth.entity).record) }),
    [SESSION_SCHEMA]: objectOf({
      id: { type: "string" },
      createdAt: { type: "string", format: "date-time" },
      refreshedAt: { type: "string", format: "date-time" },
      expiresAt: { type: "string", format: "date-time" },
      userAgent: { type: ["string", "null"] },
      current: { type: "boolean", description: "The session of the token that asked." },
    }),
  };
}
