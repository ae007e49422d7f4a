import type { z } from "zod";
import { sessionTokensSchema, signedInSchema } from "../accounts/signed-in-view.js";
import { apiKeyViewSchema, createdApiKeySchema } from "../api-keys/api-key-view.js";
import type { AuthModel } from "../config/index.js";
import type { EndpointFlag } from "../config/vocabulary.js";
import { ORGANIZATIONS_SEGMENT } from "../config/vocabulary.js";
import { entryPath } from "../endpoints/api-paths.js";
import { type CatalogOperation, catalogOperations, type EndpointOperation, isServed } from "../endpoints/catalog.js";
import { inputSchemaOf, type JsonSchema, objectOf, outputSchemaOf, recordSchemaNames, ref } from "../endpoints/json-schema.js";
import { parameterObject } from "../endpoints/query.js";
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
  SECURITY_EVENT_SCHEMA,
  SESSION_SCHEMA,
  SIGNED_IN_SCHEMA,
  TOTP_CONFIRMED_SCHEMA,
} from "../endpoints/schemas.js";
import { securityEventSchema } from "../events/event-view.js";
import { addedPasskeySchema, passkeySummarySchema } from "../mfa/passkey-view.js";
import { mfaChallengeSchema, mfaEnrollmentSchema } from "../mfa/second-step-view.js";
import { recoveryCodesSchema } from "../mfa/totp-view.js";
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
  if (operation.setupRoleOnly) return { permissions: [auth.setupRole], sentence: `${auth.setupRole} only` };
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
  return (operation.parameters ?? []).map(parameterObject);
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
    path: entryPath(auth.entity, entry),
    operationId: operation.operationId,
    tag: entry.base === ORGANIZATIONS_SEGMENT ? "Organizations" : "Authentication",
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
export const TOKEN_PROPERTIES = outputSchemaOf(sessionTokensSchema).properties as Readonly<Record<string, JsonSchema>>;

/** An answer's JSON Schema with its `user` the domain's record schema (a zod schema holds any record there). */
function withUserRecord(schema: z.ZodType, auth: AuthModel): JsonSchema {
  const json = outputSchemaOf(schema);
  (json.properties as Record<string, JsonSchema>).user = ref(recordSchemaNames(auth.entity).record);
  return json;
}

/** An answer that holds the sign-in only after a required enrolment: its own properties, then the sign-in's, optional. */
function withOptionalSignIn(schema: z.ZodObject, auth: AuthModel, description: string): JsonSchema {
  return { ...withUserRecord(schema.extend(signedInSchema.partial().shape), auth), description };
}

/** The answers of second factors (docs/mfa.md): a second step to take, an enrolment to make, TOTP turned on. */
function secondFactorSchemas(auth: AuthModel): Record<string, JsonSchema> {
  const enrols = [...auth.roles, auth.setupRole].some((role) => mustEnrolSecondFactor(auth, role));
  const after = '; after a required enrolment also the sign-in, as login answers it (with `"transport": "cookie"`, the tokens as cookies).';
  return {
    ...(enrols ? { [MFA_ENROLLMENT_SCHEMA]: outputSchemaOf(mfaEnrollmentSchema) } : {}),
    [MFA_CHALLENGE_SCHEMA]: outputSchemaOf(mfaChallengeSchema),
    [PASSKEY_SCHEMA]: outputSchemaOf(passkeySummarySchema),
    [PASSKEY_ADDED_SCHEMA]: withOptionalSignIn(addedPasskeySchema, auth, `The new passkey${after}`),
    [TOTP_CONFIRMED_SCHEMA]: withOptionalSignIn(recoveryCodesSchema, auth, `The recovery codes${after}`),
  };
}

/** The schemas the auth operations refer to: the signed-in body, a session, and those of second factors when any is on. */
export function authSchemas(auth: AuthModel): Record<string, JsonSchema> {
  return {
    ...(auth.mfa.totp || auth.mfa.passkeys ? secondFactorSchemas(auth) : {}),
    [SIGNED_IN_SCHEMA]: withUserRecord(signedInSchema, auth),
    [SESSION_SCHEMA]: outputSchemaOf(sessionViewSchema),
    [SECURITY_EVENT_SCHEMA]: outputSchemaOf(securityEventSchema),
    [API_KEY_SCHEMA]: outputSchemaOf(apiKeyViewSchema),
    [API_KEY_CREATED_SCHEMA]: outputSchemaOf(createdApiKeySchema),
  };
}
