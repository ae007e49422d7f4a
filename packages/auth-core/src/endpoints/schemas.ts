import type { z } from "zod";
import { loginBodySchema, refreshBodySchema, signUpBodySchema, transportSchema } from "../accounts/auth-body-schemas.js";
import type { AuthModel } from "../config/index.js";
import { recordSchemaNames } from "../openapi/records.js";
import { type JsonSchema, objectOf, ref } from "../openapi/schema.js";
import { IGNORED_KEYS } from "../records/body-schema.js";
import { emailRequestBodySchema, resetPasswordBodySchema, verifyEmailBodySchema } from "../routes/mail-bodies.js";
import type { AuthOperationId } from "./catalog.js";

/** The name of the signed-in body's schema (tokens and the profile) in the document's components. */
export const SIGNED_IN_SCHEMA = "signedIn";
/** The name of a session's schema (CONTRACT 10) in the document's components. */
export const SESSION_SCHEMA = "session";

/** The JSON body an operation reads. */
export interface EndpointBody {
  /** The zod schema its handler validates it with. */
  readonly schema: (auth: AuthModel) => z.ZodType;
  /** Keys the schema lets through but the server ignores: left out of the document. */
  readonly ignoredKeys?: Iterable<string>;
  /** Keys read beside the schema (the setup token), documented with it. */
  readonly alsoReads?: Readonly<Record<string, JsonSchema>>;
}

/** What an operation reads and answers, as schemas: for the OpenAPI document. */
export interface OperationSchemas {
  readonly body?: EndpointBody;
  /** The success answer's JSON Schema; none for an answer without a body (204). */
  readonly answer?: (auth: AuthModel) => JsonSchema;
}

const profile = (auth: AuthModel): JsonSchema => objectOf({ user: ref(recordSchemaNames(auth.entity).record) });
const signedIn = (): JsonSchema => ref(SIGNED_IN_SCHEMA);
const accepted = (): JsonSchema => objectOf({});
/** `transport` as the document describes it where it is read beside a schema. */
const TRANSPORT_PROPERTY: JsonSchema = {
  type: "string",
  enum: ["body", "cookie"],
  description: transportSchema.description ?? "",
};
const signUp: EndpointBody = { schema: (auth) => signUpBodySchema(auth.entity), ignoredKeys: IGNORED_KEYS };

/** The bodies and answers of every auth operation of the catalog, by operation id. */
export const OPERATION_SCHEMAS: Readonly<Record<AuthOperationId, OperationSchemas>> = {
  login: { body: { schema: () => loginBodySchema }, answer: signedIn },
  register: { body: signUp, answer: profile },
  me: { answer: profile },
  setupStatus: {
    answer: () =>
      objectOf({ setupRequired: { type: "boolean" }, setupTokenRequired: { type: "boolean" } }, { optional: ["setupTokenRequired"] }),
  },
  setup: {
    body: {
      ...signUp,
      alsoReads: {
        setupToken: { type: "string", description: "Required when the server was started with `SETUP_TOKEN` (then 403 without it)." },
        transport: TRANSPORT_PROPERTY,
      },
    },
    answer: signedIn,
  },
  logout: {},
  refresh: { body: { schema: () => refreshBodySchema }, answer: signedIn },
  listSessions: { answer: () => objectOf({ items: { type: "array", items: ref(SESSION_SCHEMA) } }) },
  revokeSessions: {},
  revokeSession: {},
  forgotPassword: { body: { schema: () => emailRequestBodySchema }, answer: accepted },
  resetPassword: { body: { schema: () => resetPasswordBodySchema }, answer: signedIn },
  verifyEmail: { body: { schema: () => verifyEmailBodySchema }, answer: profile },
  resendVerification: { body: { schema: () => emailRequestBodySchema }, answer: accepted },
};
