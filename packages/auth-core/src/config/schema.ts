import { z } from "zod";
import { ENTITY_NAME, IDENTIFIER } from "./naming.js";
import { PROVIDER_ID, PROVIDER_TYPES } from "./providers.js";
import { AUTH_TYPES, ENDPOINTS, FIELD_TYPES, OPERATIONS } from "./vocabulary.js";

const fieldTypeSchema = z.enum(FIELD_TYPES).describe("The field's type; `ref` needs `to`, `enum` needs `values`.");

const fieldOptionsSchema = z
  .strictObject({
    type: fieldTypeSchema,
    required: z.boolean().optional().describe("A value must be given (on create) and cannot be cleared."),
    unique: z.boolean().optional().describe("No two records share a value (nulls never clash)."),
    default: z.union([z.string(), z.number(), z.boolean()]).optional().describe("Fills an absent key on create."),
    maxLength: z.int().min(1).optional().describe("string/text: the most code points."),
    min: z.number().optional().describe("integer/number: the smallest value."),
    max: z.number().optional().describe("integer/number: the largest value."),
    to: z.string().regex(ENTITY_NAME).optional().describe("ref: the entity referred to."),
    values: z.array(z.string()).optional().describe("enum: the values it may take, such as [draft, published]."),
  })
  .describe("A field declaration.");

const roleListSchema = z.array(z.string());
const roleListOf = (operation: string) =>
  roleListSchema
    .optional()
    .describe(
      `Who may ${operation}: role names, or "*" (anyone), "@Authenticated" (any signed-in user), "@Owner" (the record's owner) and, on a tenant entity, "@Member" or "@Member(Role, …)" (a member of the record's organization, holding one of those roles).`,
    );

const permissionsSchema = z
  .strictObject({
    create: roleListOf("create a record"),
    read: roleListOf("read a record or list records"),
    update: roleListOf("update a record"),
    delete: roleListOf("delete a record"),
  })
  .describe("Who may perform each operation; an operation without an entry is open to any signed-in user.");

function entitySchemaOf<F extends z.ZodType>(field: F) {
  return z
    .strictObject({
      owner: z.string().optional().describe("The ref field that holds the owning user's id (for @Owner)."),
      fields: z
        .record(z.string().regex(IDENTIFIER), field)
        .describe("The entity's fields by name; id, createdAt and updatedAt are added by the service."),
      permissions: permissionsSchema.optional(),
      tenant: z.boolean().optional().meta({
        description: "Each record belongs to one organization and is served under /api/orgs/<orgId>/<segment> (needs auth.organizations).",
        default: false,
      }),
    })
    .describe("An entity: a table and a collection at /api/<segment>.");
}

const endpointsSchema = z
  .strictObject({
    login: z.boolean().optional().meta({ description: "POST /api/<auth>/login", default: true }),
    register: z.boolean().optional().meta({ description: "POST /api/<auth>/register", default: true }),
    me: z.boolean().optional().meta({ description: "GET /api/<auth>/me", default: true }),
    setup: z.boolean().optional().meta({ description: "GET and POST /api/<auth>/setup", default: true }),
    logout: z.boolean().optional().meta({ description: "POST /api/<auth>/logout: revokes the caller's session", default: true }),
    refresh: z.boolean().optional().meta({ description: "POST /api/<auth>/refresh: a refresh token for a new token pair", default: true }),
    sessions: z
      .boolean()
      .optional()
      .meta({ description: "GET and DELETE /api/<auth>/sessions: the signed-in sessions, and revoking them", default: true }),
    passwordReset: z.boolean().optional().meta({
      description: "POST /api/<auth>/forgot-password and reset-password: a new password through a link sent by e-mail",
      default: true,
    }),
    verifyEmail: z.boolean().optional().meta({
      description: "POST /api/<auth>/verify-email and resend-verification: confirming an e-mail address through a link",
      default: true,
    }),
  })
  .describe("Which auth endpoints exist; each defaults to true.");

const mfaSchema = z
  .strictObject({
    totp: z.boolean().optional().meta({
      description: "Codes from an authenticator app (TOTP, RFC 6238), with single-use recovery codes.",
      default: true,
    }),
    passkeys: z.boolean().optional().meta({ description: "Passkeys (WebAuthn) as a second factor, or to sign in alone.", default: true }),
    required: z.array(z.string()).optional().meta({
      description: "Roles whose users must set up a second factor: they enrol at their next sign-in (setup included).",
      default: [],
    }),
  })
  .describe("Second factors after the password.");

const providerSchema = z
  .strictObject({
    type: z
      .enum(PROVIDER_TYPES)
      .describe("oidc: any OpenID Provider by its issuer; google, microsoft, gitlab, github: a preset (docs/providers.md)."),
    name: z
      .string()
      .min(1)
      .max(40)
      .optional()
      .describe("The button's label (Continue with <name>); default: the preset's name, else the id."),
    issuer: z
      .string()
      .optional()
      .describe("oidc (and a self-managed gitlab): the issuer, where /.well-known/openid-configuration is read; https."),
    tenant: z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/)
      .optional()
      .describe("microsoft (required): the Entra ID directory, its domain or id."),
    url: z.string().optional().describe("github: a GitHub Enterprise Server's address; default GitHub.com."),
    scopes: z
      .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/))
      .optional()
      .meta({ description: "The scopes asked for; an OpenID provider's include openid.", default: ["openid", "email", "profile"] }),
  })
  .describe("A provider people may sign in with; its client id and secret come from AUTH_PROVIDER_<ID>_CLIENT_ID and _CLIENT_SECRET.");

const organizationsSchema = z
  .strictObject({
    roles: z
      .array(z.string().regex(IDENTIFIER))
      .min(1)
      .describe("The roles inside an organization, highest first; the first is its creator's."),
    manage: z
      .array(z.string())
      .optional()
      .describe("The organization roles that invite, change roles and remove members; default: the first role."),
    create: z
      .array(z.string())
      .optional()
      .meta({ description: "Who may create an organization: global roles, or @Authenticated.", default: ["@Authenticated"] }),
  })
  .describe("Organizations: records of tenant entities belong to one, and members hold a role in it (docs/organizations.md).");

const authSchema = z
  .strictObject({
    type: z.enum(AUTH_TYPES).describe("jwt: bearer tokens; none: no authentication, every operation open."),
    entity: z.string().optional().describe("The entity that holds users; detected when omitted."),
    roles: z
      .array(z.string().regex(IDENTIFIER))
      .optional()
      .meta({ description: "The roles users may hold; the setup role is Admin when listed (or none are), else the first.", default: [] }),
    endpoints: endpointsSchema.optional(),
    verifyEmail: z.boolean().optional().meta({
      description: "Self-registered users confirm their e-mail address through a link before they can sign in.",
      default: false,
    }),
    mfa: mfaSchema.optional(),
    providers: z
      .record(z.string().regex(PROVIDER_ID), providerSchema)
      .optional()
      .describe("Sign-in with other providers (docs/providers.md), by id (^[a-z][a-z0-9-]{0,30}$); the order of the buttons."),
    organizations: organizationsSchema.optional(),
  })
  .describe("How callers authenticate.");

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function domainSchemaOf<F extends z.ZodType>(field: F) {
  return z
    .strictObject({
      name: z.string().regex(NAME).describe("The service's name; the JWT issuer."),
      entities: z
        .record(z.string().regex(ENTITY_NAME), entitySchemaOf(field))
        .describe("The entities by PascalCase name; each is served at /api/<kebab-case name>."),
      auth: authSchema,
    })
    .describe("domain.yaml: the entities of an API and how it authenticates.");
}

/** `domain.yaml` as written (a field may be a bare type name). Used for the JSON Schema. */
export const domainFileSchema = domainSchemaOf(z.union([fieldTypeSchema, fieldOptionsSchema]));

/** `domain.yaml` after shorthand fields were expanded to `{ type }`. */
export const normalizedDomainSchema = domainSchemaOf(fieldOptionsSchema);

export type FieldDeclaration = z.infer<typeof fieldOptionsSchema>;
export type DomainDeclaration = z.infer<typeof normalizedDomainSchema>;
export type EntityDeclaration = DomainDeclaration["entities"][string];
export type ProviderDeclaration = NonNullable<DomainDeclaration["auth"]["providers"]>[string];

/** Keys each kind of map may hold, for "did you mean" hints. */
export const KNOWN_KEYS = {
  root: Object.keys(normalizedDomainSchema.shape),
  entity: ["owner", "fields", "permissions", "tenant"],
  field: Object.keys(fieldOptionsSchema.shape),
  permissions: [...OPERATIONS],
  auth: Object.keys(authSchema.shape),
  endpoints: [...ENDPOINTS],
  mfa: Object.keys(mfaSchema.shape),
  provider: Object.keys(providerSchema.shape),
  organizations: Object.keys(organizationsSchema.shape),
} as const;
