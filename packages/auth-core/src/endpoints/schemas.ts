import type { z } from "zod";
import { loginBodySchema, refreshBodySchema, signUpBodySchema, transportSchema } from "../accounts/auth-body-schemas.js";
import { setupStatusSchema } from "../accounts/setup-view.js";
import type { AuthModel, DomainModel } from "../config/index.js";
import type { AuthServices } from "../context.js";
import { eventSummarySchema } from "../events/event-summary.js";
import { eventPageSchema } from "../events/event-view.js";
import { recoveryCodesSchema, totpEnrolmentSchema, totpStatusSchema } from "../mfa/totp-view.js";
import {
  invitationListSchema,
  invitationSchema,
  memberAnswerSchema,
  memberPageSchema,
  membershipAnswerSchema,
  organizationAnswerSchema,
  organizationListSchema,
} from "../organizations/organization-view.js";
import { apiKeyScopes } from "../policy/api-keys.js";
import { mustEnrolSecondFactor } from "../policy/second-factor.js";
import { identityListSchema, linkStartedSchema, providerListSchema } from "../providers/provider-view.js";
import { IGNORED_KEYS } from "../records/body-schema.js";
import { createApiKeyBodySchema } from "./bodies/api-key-bodies.js";
import { emailRequestBodySchema, resetPasswordBodySchema, verifyEmailBodySchema } from "./bodies/mail-bodies.js";
import { confirmTotpBodySchema, disableTotpBodySchema, loginMfaBodySchema, recoveryCodesBodySchema } from "./bodies/mfa-bodies.js";
import {
  acceptInvitationBodySchema,
  createOrganizationBodySchema,
  invitationBodySchema,
  memberRoleBodySchema,
  updateOrganizationBodySchema,
} from "./bodies/organization-bodies.js";
import { addPasskeyBodySchema, loginPasskeyBodySchema, passkeySignInOptionsBodySchema } from "./bodies/passkey-bodies.js";
import { readSetupBody, readSignUpBody } from "./bodies/sign-up-bodies.js";
import type { AuthOperationId } from "./catalog.js";
import { type JsonSchema, objectOf, outputSchemaOf, recordSchemaNames, ref } from "./json-schema.js";

/** The name of the signed-in body's schema (tokens and the profile) in the document's components. */
export const SIGNED_IN_SCHEMA = "signedIn";
/** The name of a session's schema (docs/api.md#sessions) in the document's components. */
export const SESSION_SCHEMA = "session";
/** The answer to a right password when a second factor must follow (docs/mfa.md). */
export const MFA_CHALLENGE_SCHEMA = "mfaChallenge";
/** The answer to a right password when a second factor must be set up first (docs/mfa.md). */
export const MFA_ENROLLMENT_SCHEMA = "mfaEnrollment";
/** The answer that turns TOTP on: the recovery codes, and after a required enrolment the sign-in too. */
export const TOTP_CONFIRMED_SCHEMA = "totpConfirmed";
/** A passkey as its owner sees it. */
export const PASSKEY_SCHEMA = "passkey";
/** The answer that adds a passkey: it, and after a required enrolment the sign-in too. */
export const PASSKEY_ADDED_SCHEMA = "passkeyAdded";
/** The name of a security event's schema (docs/events.md) in the document's components. */
export const SECURITY_EVENT_SCHEMA = "securityEvent";

/** An API key as lists show it (docs/api-keys.md). */
export const API_KEY_SCHEMA = "apiKey";
/** The answer that creates an API key: it, with the key shown only there. */
export const API_KEY_CREATED_SCHEMA = "apiKeyCreated";

/** The JSON body an operation reads: validated before its handler runs, which gets what it parses to. */
export interface EndpointBody<Schema extends z.ZodType = z.ZodType> {
  /** The zod schema it is validated with (made once per instance) and the document shows. */
  readonly schema: (auth: AuthModel, model?: DomainModel) => Schema;
  /** Reads it instead of the schema alone: a body with keys read beside the schema. */
  readonly parse?: (body: Record<string, unknown>, services: AuthServices) => unknown;
  /** Keys the schema lets through but the server ignores: left out of the document. */
  readonly ignoredKeys?: Iterable<string>;
  /** Keys read beside the schema (the setup token), documented with it. */
  readonly alsoReads?: Readonly<Record<string, JsonSchema>>;
}

/** What an operation reads and answers, as schemas: for the OpenAPI document. */
export interface OperationSchemas {
  readonly body?: EndpointBody;
  /** A body it accepts and never reads (documented as optional). */
  readonly ignoresBody?: true;
  /** The success answer's JSON Schema; none for an answer without a body (204). */
  readonly answer?: (auth: AuthModel) => JsonSchema;
}

const profile = (auth: AuthModel): JsonSchema => objectOf({ user: ref(recordSchemaNames(auth.entity).record) });
const signedIn = (): JsonSchema => ref(SIGNED_IN_SCHEMA);
/**
 * What a right password answers: a session; with TOTP on, or a second step; with roles required
 * to enrol (the setup role, for `setup`), or an enrolment.
 */
const signInAnswer =
  (options: { readonly challenge: boolean; readonly rolesOf?: (auth: AuthModel) => readonly string[] }) =>
  (auth: AuthModel): JsonSchema => {
    const roles = options.rolesOf?.(auth) ?? auth.roles;
    const answers = [
      signedIn(),
      ...((auth.mfa.totp || auth.mfa.passkeys) && options.challenge ? [ref(MFA_CHALLENGE_SCHEMA)] : []),
      ...(roles.some((role) => mustEnrolSecondFactor(auth, role)) ? [ref(MFA_ENROLLMENT_SCHEMA)] : []),
    ];
    return answers.length === 1 ? signedIn() : { anyOf: answers };
  };
const passwordSignIn = signInAnswer({ challenge: true });
const accepted = (): JsonSchema => objectOf({});
/** A page's JSON Schema with its items a reference to their component (a zod schema describes them in full). */
function pageOf(schema: z.ZodType, itemSchema: string): JsonSchema {
  const json = outputSchemaOf(schema);
  (json.properties as Record<string, JsonSchema>).items = { type: "array", items: ref(itemSchema) };
  return json;
}
/** `transport` as the document describes it where it is read beside a schema. */
const TRANSPORT_PROPERTY: JsonSchema = {
  type: "string",
  enum: ["body", "cookie"],
  description: transportSchema.description ?? "",
};
/** WebAuthn options as @simplewebauthn/server makes them: for the browser's `startRegistration()` / `startAuthentication()`. */
const webAuthnOptions = (required: readonly string[], description: string) => (): JsonSchema => ({
  type: "object",
  properties: Object.fromEntries(required.map((key) => [key, key === "challenge" ? { type: "string" } : {}])),
  required: [...required],
  additionalProperties: true,
  description,
});
const signUp = {
  schema: (auth: AuthModel) => signUpBodySchema(auth.entity),
  parse: readSignUpBody,
  ignoredKeys: IGNORED_KEYS,
} satisfies EndpointBody;

/** The bodies and answers of every auth operation of the catalog, by operation id. */
export const OPERATION_SCHEMAS = {
  login: { body: { schema: () => loginBodySchema }, answer: passwordSignIn },
  loginMfa: { body: { schema: () => loginMfaBodySchema }, answer: signedIn },
  register: { body: signUp, answer: profile },
  me: { answer: profile },
  setupStatus: { answer: () => outputSchemaOf(setupStatusSchema) },
  listProviders: { answer: () => outputSchemaOf(providerListSchema) },
  startProviderSignIn: {},
  providerCallback: {},
  listIdentities: { answer: () => outputSchemaOf(identityListSchema) },
  linkIdentity: { answer: () => outputSchemaOf(linkStartedSchema) },
  unlinkIdentity: {},
  setup: {
    body: {
      ...signUp,
      parse: readSetupBody,
      alsoReads: {
        setupToken: { type: "string", description: "Required when the server was started with `SETUP_TOKEN` (then 403 without it)." },
        transport: TRANSPORT_PROPERTY,
      },
    },
    answer: signInAnswer({ challenge: false, rolesOf: (auth) => [auth.setupRole] }),
  },
  logout: { ignoresBody: true },
  refresh: { body: { schema: () => refreshBodySchema }, answer: signedIn },
  listSessions: { answer: () => objectOf({ items: { type: "array", items: ref(SESSION_SCHEMA) } }) },
  revokeSessions: {},
  revokeSession: {},
  forgotPassword: { body: { schema: () => emailRequestBodySchema }, answer: accepted },
  resetPassword: { body: { schema: () => resetPasswordBodySchema }, answer: passwordSignIn },
  verifyEmail: { body: { schema: () => verifyEmailBodySchema }, answer: profile },
  resendVerification: { body: { schema: () => emailRequestBodySchema }, answer: accepted },
  totpStatus: { answer: () => outputSchemaOf(totpStatusSchema) },
  startTotp: { answer: () => outputSchemaOf(totpEnrolmentSchema) },
  disableTotp: { body: { schema: () => disableTotpBodySchema } },
  confirmTotp: { body: { schema: () => confirmTotpBodySchema }, answer: () => ref(TOTP_CONFIRMED_SCHEMA) },
  regenerateRecoveryCodes: {
    body: { schema: () => recoveryCodesBodySchema },
    answer: () => outputSchemaOf(recoveryCodesSchema),
  },
  loginPasskeyOptions: {
    body: { schema: () => passkeySignInOptionsBodySchema },
    answer: webAuthnOptions(["challenge", "rpId", "userVerification"], "PublicKeyCredentialRequestOptionsJSON"),
  },
  loginPasskey: { body: { schema: () => loginPasskeyBodySchema }, answer: signedIn },
  passkeyOptions: {
    answer: webAuthnOptions(["challenge", "rp", "user", "pubKeyCredParams"], "PublicKeyCredentialCreationOptionsJSON"),
  },
  listPasskeys: { answer: () => objectOf({ items: { type: "array", items: ref(PASSKEY_SCHEMA) } }) },
  addPasskey: { body: { schema: () => addPasskeyBodySchema }, answer: () => ref(PASSKEY_ADDED_SCHEMA) },
  removePasskey: {},
  listEvents: { answer: () => pageOf(eventPageSchema, SECURITY_EVENT_SCHEMA) },
  summarizeEvents: { answer: () => outputSchemaOf(eventSummarySchema) },
  listApiKeys: { answer: () => objectOf({ items: { type: "array", items: ref(API_KEY_SCHEMA) } }) },
  createApiKey: {
    // The domain's scopes where an instance validates it; any well-formed scope in a document of the auth part alone.
    body: { schema: (_auth: AuthModel, model?: DomainModel) => createApiKeyBodySchema(model && apiKeyScopes(model.entities)) },
    answer: () => ref(API_KEY_CREATED_SCHEMA),
  },
  revokeApiKey: {},
  listOrganizations: { answer: () => outputSchemaOf(organizationListSchema) },
  createOrganization: { body: { schema: () => createOrganizationBodySchema }, answer: () => outputSchemaOf(membershipAnswerSchema) },
  getOrganization: { answer: () => outputSchemaOf(membershipAnswerSchema) },
  updateOrganization: { body: { schema: () => updateOrganizationBodySchema }, answer: () => outputSchemaOf(organizationAnswerSchema) },
  deleteOrganization: {},
  listMembers: { answer: () => outputSchemaOf(memberPageSchema) },
  changeMemberRole: {
    body: { schema: (auth: AuthModel) => memberRoleBodySchema(auth.organizations) },
    answer: () => outputSchemaOf(memberAnswerSchema),
  },
  removeMember: {},
  listInvitations: { answer: () => outputSchemaOf(invitationListSchema) },
  inviteMember: {
    body: { schema: (auth: AuthModel) => invitationBodySchema(auth.organizations) },
    answer: () => outputSchemaOf(invitationSchema),
  },
  revokeInvitation: {},
  acceptInvitation: { body: { schema: () => acceptInvitationBodySchema }, answer: () => outputSchemaOf(membershipAnswerSchema) },
} as const satisfies Readonly<Record<AuthOperationId, OperationSchemas>>;

type BodyDefinitionOf<Id extends AuthOperationId> = (typeof OPERATION_SCHEMAS)[Id] extends { readonly body: infer Body } ? Body : never;

/** What an operation's body parses to: its `parse`'s result, else its schema's output; `undefined` where no body is read. */
export type BodyOf<Id extends AuthOperationId> = [BodyDefinitionOf<Id>] extends [never]
  ? undefined
  : BodyDefinitionOf<Id> extends { readonly parse: (...args: never[]) => infer Parsed }
    ? Parsed
    : BodyDefinitionOf<Id> extends { readonly schema: (...args: never[]) => infer Schema extends z.ZodType }
      ? z.output<Schema>
      : undefined;
