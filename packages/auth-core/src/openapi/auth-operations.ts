import { apiKeyViewSchema, createdApiKeySchema } from "../api-keys/api-key-view.js";
import type { AuthModel } from "../config/index.js";
import type { EndpointFlag } from "../config/vocabulary.js";
import { API_PREFIX } from "../endpoints/api-paths.js";
import { type CatalogOperation, catalogOperations, type EndpointOperation, isServed } from "../endpoints/catalog.js";
import { inputSchemaOf, type JsonSchema, objectOf, outputSchemaOf, recordSchemaNames, ref } from "../endpoints/json-schema.js";
import {
  API_KEY_CREATED_SCHEMA,
  API_KEY_SCHEMA,
  type EndpointBody,
  MFA_CHALLENGE_SCHEMA,
  MFA_ENROLLMENT_SCHEMA,
  OPERATION_SCHEMAS,
  type OperationSchemas,
  PASSKEY_ADDED_SCHEMA,
  PASSKEY_SCHEMA,
  RECOVERY_CODES_PROPERTY,
  SECURITY_EVENT_SCHEMA,
  SESSION_SCHEMA,
  SIGNED_IN_SCHEMA,
  TOTP_CONFIRMED_SCHEMA,
} from "../endpoints/schemas.js";
import { MAX_EVENT_USER_AGENT_LENGTH, SECURITY_EVENT_TYPES } from "../events/event-types.js";
import { passkeySummarySchema } from "../mfa/passkey-view.js";
import { MFA_TOKEN_TTL_SECONDS } from "../mfa/second-factors.js";
import type { PermissionSummary } from "../policy/permission-summary.js";
import { mustEnrolSecondFactor } from "../policy/second-factor.js";
import { sessionViewSchema } from "../sessions/session-view.js";
import type { OperationSpec } from "./operation.js";

/** Anyone may call it; a token, when sent, must still be valid. */
const ANYONE: PermissionSummary = { permissions: ["*"], sentence: "anyone, signed in or not" };
/** Any caller with a valid token. */
const SIGNED_IN: PermissionSummary = { permissions: ["@Authenticated"], sentence: "any signed-in user" };

/** A signed-in user, or the holder of a required enrolment's `mfaToken` (docs/mfa.md). */
const ENROLLING: PermissionSummary = {
  permissions: SIGNED_IN.permissions,
  sentence: `${SIGNED_IN.sentence}, or the \`mfaToken\` of a required enrolment as the bearer token`,
};

function accessOf(operation: EndpointOperation, auth: AuthModel): PermissionSummary {
  if (operation.caller === "none") return ANYONE;
  if (operation.enrolment) return ENROLLING;
  if (operation.setupRoleWith === undefined) return SIGNED_IN;
  return {
    permissions: SIGNED_IN.permissions,
    sentence: `${SIGNED_IN.sentence}; with another user's \`${operation.setupRoleWith}\`, ${auth.setupRole} only`,
  };
}

/** Who may call a sensitive action: as `access` says, with a session that signed in recently or the current password. */
function recentlySignedIn(access: PermissionSummary): PermissionSummary {
  return {
    ...access,
    sentence: `${access.sentence}, whose session signed in within \`AUTH_REAUTH_WINDOW\` (else send \`currentPassword\`)`,
  };
}

function parametersOf(operation: EndpointOperation): JsonSchema[] {
  return (operation.parameters ?? []).map(({ name, in: place, description, type, values, minimum, maximum }) => ({
    name,
    in: place,
    required: place === "path",
    schema: {
      type: type ?? "string",
      ...(values ? { enum: [...values] } : {}),
      ...(minimum !== undefined ? { minimum } : {}),
      ...(maximum !== undefined ? { maximum } : {}),
    },
    description,
  }));
}

/** `currentPassword`, as a sensitive action reads it beside its body. */
const CURRENT_PASSWORD: JsonSchema = {
  type: "string",
  maxLength: 1024,
  description:
    "Your current password: needed when this session signed in longer ago than `AUTH_REAUTH_WINDOW` (else 403 `REAUTHENTICATION_REQUIRED`); a wrong one counts as a failed sign-in.",
};

function bodyOf(body: EndpointBody, auth: AuthModel, recentSignIn: boolean): JsonSchema {
  const json = inputSchemaOf(body.schema(auth), { ignored: body.ignoredKeys ?? [] });
  if (body.alsoReads) Object.assign(json.properties as Record<string, JsonSchema>, body.alsoReads);
  if (recentSignIn) Object.assign(json.properties as Record<string, JsonSchema>, { currentPassword: CURRENT_PASSWORD });
  return json;
}

/** The body of a sensitive action that reads nothing else: sent only to prove a stale session's user. */
const RECENT_SIGN_IN_BODY: JsonSchema = objectOf({ currentPassword: CURRENT_PASSWORD }, { optional: ["currentPassword"] });

function specOf({ entry, method, operation }: CatalogOperation, auth: AuthModel): OperationSpec {
  const { body, answer, ignoresBody }: OperationSchemas = OPERATION_SCHEMAS[operation.operationId];
  const parameters = parametersOf(operation);
  return {
    method: method.toLowerCase() as OperationSpec["method"],
    path: `${API_PREFIX}/${auth.entity.segment}/${entry.path}`,
    operationId: operation.operationId,
    tag: "Authentication",
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    access: operation.recentSignIn ? recentlySignedIn(accessOf(operation, auth)) : accessOf(operation, auth),
    apiKey: operation.apiKey === true,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { body: bodyOf(body, auth, operation.recentSignIn === true) } : {}),
    ...(!body && operation.recentSignIn ? { optionalBody: RECENT_SIGN_IN_BODY } : {}),
    ...(ignoresBody ? { ignoresBody } : {}),
    success: { ...operation.success, ...(answer ? { schema: answer(auth) } : {}) },
    errors: operation.errors,
  };
}

/** The operations of the enabled auth endpoints of a domain (`flags` say which), in the catalog's order. */
export function authOperationSpecs(auth: AuthModel, flags: Readonly<Record<EndpointFlag, boolean>>): OperationSpec[] {
  return catalogOperations()
    .filter(({ entry }) => isServed(entry, flags))
    .map((operation) => specOf(operation, auth));
}

/** The tokens of a session, as a body that signs in carries them. */
export const TOKEN_PROPERTIES: Readonly<Record<string, JsonSchema>> = {
  token: { type: "string", description: "The access token: send it as `Authorization: Bearer <token>`." },
  tokenType: { type: "string", const: "Bearer" },
  expiresIn: { type: "integer", description: "Seconds until the access token expires." },
  refreshToken: { type: "string", description: "Spend it at `refresh` for a new pair." },
  refreshExpiresIn: { type: "integer", description: "Seconds until the refresh token expires." },
};

/** The token fields a sign-in with `"transport": "cookie"` leaves out of its answer (they go into cookies). */
export const COOKIE_TRANSPORT_OMITS = ["token", "tokenType", "refreshToken"] as const;

const MFA_TOKEN: JsonSchema = { type: "string", description: `Single use, for ${MFA_TOKEN_TTL_SECONDS / 60} minutes.` };

/** The answers of second factors (docs/mfa.md): a second step to take, an enrolment to make, TOTP turned on. */
function secondFactorSchemas(auth: AuthModel): Record<string, JsonSchema> {
  const signedIn = { ...TOKEN_PROPERTIES, user: ref(recordSchemaNames(auth.entity).record) };
  const enrols = [...auth.roles, auth.setupRole].some((role) => mustEnrolSecondFactor(auth, role));
  return {
    ...(enrols
      ? {
          [MFA_ENROLLMENT_SCHEMA]: {
            ...objectOf({ mfaEnrollmentRequired: { type: "boolean", const: true }, mfaToken: MFA_TOKEN }),
            description:
              "No session yet: your role requires a second factor. Send the `mfaToken` as the bearer token to `mfa/totp`, then `mfa/totp/confirm`, or to `passkeys/options`, then `passkeys`: the confirming answer signs you in.",
          },
        }
      : {}),
    [MFA_CHALLENGE_SCHEMA]: {
      ...objectOf({
        mfaRequired: { type: "boolean", const: true },
        mfaToken: MFA_TOKEN,
        methods: { type: "array", items: { type: "string", enum: ["totp", "recovery", "passkey"] } },
        expiresIn: { type: "integer", description: "Seconds the `mfaToken` lives." },
      }),
      description:
        "No session yet: send the `mfaToken` with a code, a recovery code or a passkey's answer (`passkey` in `methods`) to `login/mfa`.",
    },
    [PASSKEY_SCHEMA]: outputSchemaOf(passkeySummarySchema),
    [PASSKEY_ADDED_SCHEMA]: {
      ...objectOf(
        { id: { type: "string" }, name: { type: "string" }, createdAt: { type: "string", format: "date-time" }, ...signedIn },
        { optional: Object.keys(signedIn) },
      ),
      description:
        'The new passkey; after a required enrolment also the sign-in, as login answers it (with `"transport": "cookie"`, the tokens as cookies).',
    },
    [TOTP_CONFIRMED_SCHEMA]: {
      ...objectOf({ recoveryCodes: RECOVERY_CODES_PROPERTY, ...signedIn }, { optional: Object.keys(signedIn) }),
      description:
        'The recovery codes; after a required enrolment also the sign-in, as login answers it (with `"transport": "cookie"`, the tokens as cookies).',
    },
  };
}

/** The schemas the auth operations refer to: the signed-in body, a session, and those of second factors when any is on. */
export function authSchemas(auth: AuthModel): Record<string, JsonSchema> {
  return {
    ...(auth.mfa.totp || auth.mfa.passkeys ? secondFactorSchemas(auth) : {}),
    [SIGNED_IN_SCHEMA]: {
      ...objectOf(
        { ...TOKEN_PROPERTIES, user: ref(recordSchemaNames(auth.entity).record) },
        // With `"transport": "cookie"` the tokens are cookies; `refreshExpiresIn` is absent without a refresh endpoint.
        { optional: [...COOKIE_TRANSPORT_OMITS, "refreshExpiresIn"] },
      ),
      description:
        'The session\'s tokens and the profile. With `"transport": "cookie"`, `token`, `tokenType` and `refreshToken` are set as HttpOnly cookies instead.',
    },
    [SESSION_SCHEMA]: outputSchemaOf(sessionViewSchema),
    [SECURITY_EVENT_SCHEMA]: SECURITY_EVENT,
    [API_KEY_SCHEMA]: outputSchemaOf(apiKeyViewSchema),
    [API_KEY_CREATED_SCHEMA]: outputSchemaOf(createdApiKeySchema),
  };
}

const TEXT_OR_NULL: JsonSchema = { type: ["string", "null"] };

/** A security event (docs/events.md), as `GET events` answers it and `onEvent` receives it. */
const SECURITY_EVENT: JsonSchema = {
  ...objectOf({
    id: { type: "string" },
    at: { type: "string", format: "date-time" },
    type: { type: "string", enum: [...SECURITY_EVENT_TYPES] },
    userId: {
      ...TEXT_OR_NULL,
      description: "The user it is about; `null` when no account is known (a failed login for an unknown email).",
    },
    actorId: { ...TEXT_OR_NULL, description: "Who made it happen: the user, an administrator, or `null`." },
    email: { ...TEXT_OR_NULL, description: "The user's email then, or the email a refused attempt named." },
    address: { ...TEXT_OR_NULL, description: "The client address, as login throttling counts it." },
    userAgent: { ...TEXT_OR_NULL, description: `The client's \`User-Agent\`, at most ${MAX_EVENT_USER_AGENT_LENGTH} characters.` },
    sessionId: { ...TEXT_OR_NULL, description: "The session it started, ended, or was made from." },
    detail: {
      type: "object",
      additionalProperties: { type: ["string", "number", "boolean", "null"] },
      description: "A few facts of the event (how a sign-in was made, a role's old and new value…); never a secret.",
    },
  }),
  description: "A security event: never a password, token, code or hash.",
};

/** The properties of an API key as lists show it (docs/api-keys.md): never the key or its hash. */
