import { z } from "zod";
import type { EntityModel, FieldModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import { MAX_PASSWORD_BYTES, MIN_PASSWORD_CHARACTERS, passwordProblem } from "../password/rules.js";
import { emailProblem, MAX_EMAIL_LENGTH, normalizeEmail } from "./email.js";

/** Keys clients may send but that are never written. */
export const IGNORED_KEYS = new Set(["id", "createdAt", "updatedAt"]);
const TENANT_IGNORED_KEYS = new Set([...IGNORED_KEYS, ORGANIZATION_ID_FIELD]);

/** The keys an entity's bodies may send and that are never written: a tenant record's `organizationId` comes from the path. */
export function ignoredKeysOf(entity: Pick<EntityModel, "tenant">): ReadonlySet<string> {
  return entity.tenant ? TENANT_IGNORED_KEYS : IGNORED_KEYS;
}

export type BodyMode = "create" | "update";

const codePoints = (value: string) => [...value].length;

// PostgreSQL text cannot hold U+0000, and a lone surrogate cannot be stored as UTF-8: refuse both
// up front so every backend answers 400 rather than failing (or silently altering the value).
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** A string that every backend stores exactly: no U+0000, no lone surrogate. */
function storableString(error: (issue: { input?: unknown }) => string): z.ZodString {
  return z
    .string({ error })
    .refine((value) => !value.includes("\u0000") && !LONE_SURROGATE.test(value), "must not contain U+0000 or unpaired surrogates");
}

/** The auth entity's `email` and `password` are always required, whatever the declaration says. */
function isRequired(field: FieldModel, entity: EntityModel): boolean {
  return field.required || (entity.isAuthEntity && (field.name === "email" || field.name === "password"));
}

function typeLabel(field: FieldModel): string {
  switch (field.type) {
    case "integer":
      return "a whole number";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "datetime":
      return "an ISO 8601 date-time string";
    case "ref":
      return "an id (string)";
    case "enum":
      return `one of ${(field.values ?? []).join(", ")}`;
    default:
      return "a string";
  }
}

/** Strings hold no U+0000 (PostgreSQL's text cannot): as JSON Schema states it. */
const NO_NUL = "^[^\\u0000]*$";

/**
 * An email as JSON Schema can state what the server accepts: the server trims, NFKC-normalizes and
 * lower-cases it first (so no `format: email`, which would refuse `" Ada@Example.COM "`), then
 * wants one `@` (`＠` and `﹫` normalize to it) and a dot after it, at most 254 characters.
 */
export const EMAIL_DOCS = {
  minLength: 3,
  pattern: "[@\\uFF20\\uFE6B]",
  description: `Trimmed, NFKC-normalized and lower-cased; then one @, a dot in the domain, at most ${MAX_EMAIL_LENGTH} characters, no spaces.`,
} as const;

/** A password's least length counts code points, as JSON Schema does; its most is in UTF-8 bytes (at most 72 code points, 1 byte each at least). */
const PASSWORD_DOCS = {
  format: "password",
  minLength: MIN_PASSWORD_CHARACTERS,
  maxLength: MAX_PASSWORD_BYTES,
  pattern: NO_NUL,
  description: `At least ${MIN_PASSWORD_CHARACTERS} characters, at most ${MAX_PASSWORD_BYTES} UTF-8 bytes, no U+0000, and not among the most common passwords (zxcvbn score 0).`,
} as const;

/**
 * What JSON Schema says of a field's value (`z.toJSONSchema`, for the OpenAPI document) where a
 * refinement checks it: zod cannot describe a refinement, so the same bound is stated beside it.
 */
function valueDocs(field: FieldModel, entity: EntityModel): Record<string, unknown> {
  if (entity.isAuthEntity && field.name === "email") return EMAIL_DOCS;
  if (entity.isAuthEntity && field.name === "password") return PASSWORD_DOCS;
  if (field.type === "ref") return { description: `The id of a ${field.to} record.` };
  if (field.values) return { enum: [...field.values] };
  const text = field.type === "string" || field.type === "text";
  return {
    ...(text ? { pattern: NO_NUL } : {}),
    ...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
    ...(field.min !== undefined ? { minimum: field.min } : {}),
    ...(field.max !== undefined ? { maximum: field.max } : {}),
  };
}

function valueSchema(field: FieldModel, entity: EntityModel): z.ZodType {
  const docs = valueDocs(field, entity);
  const schema = checkedValueSchema(field, entity);
  return Object.keys(docs).length > 0 ? schema.meta(docs) : schema;
}

function checkedValueSchema(field: FieldModel, entity: EntityModel): z.ZodType {
  const error = (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${typeLabel(field)}`);
  if (entity.isAuthEntity && field.name === "email") {
    return storableString(error).transform((value, context) => {
      const email = normalizeEmail(value);
      const problem = emailProblem(email);
      if (problem) context.addIssue({ code: "custom", message: problem });
      return email;
    });
  }
  if (entity.isAuthEntity && field.name === "password") {
    return z.string({ error }).superRefine((value, context) => {
      const problem = passwordProblem(value);
      if (problem) context.addIssue({ code: "custom", message: problem });
    });
  }
  switch (field.type) {
    case "string":
    case "text": {
      const max = field.maxLength;
      return max === undefined
        ? storableString(error)
        : storableString(error).refine((value) => codePoints(value) <= max, `must be at most ${max} characters`);
    }
    case "integer":
    case "number": {
      let schema = field.type === "integer" ? z.int({ error }).refine(Number.isSafeInteger, "is too large") : z.number({ error });
      if (field.min !== undefined) schema = schema.refine((value) => value >= (field.min as number), `must be at least ${field.min}`);
      if (field.max !== undefined) schema = schema.refine((value) => value <= (field.max as number), `must be at most ${field.max}`);
      return schema;
    }
    case "boolean":
      return z.boolean({ error });
    case "datetime":
      return z.iso.datetime({ offset: true, error }).transform((value) => new Date(value).toISOString());
    case "ref":
      return storableString(error).min(1, "must not be empty").max(128, "is not a valid id");
    case "enum": {
      const values = field.values ?? [];
      return z.string({ error }).refine((value) => values.includes(value), `must be one of ${values.join(", ")}`);
    }
  }
}

export interface BodySchemaOptions {
  /** Declared fields to leave out (their keys are then unknown). */
  readonly omit?: readonly string[];
  /** Optional string keys that are not fields (e.g. `currentPassword`). */
  readonly extraKeys?: readonly string[];
  /** `reject` (default): undeclared keys are errors; `strip`: they are silently dropped. */
  readonly unknownKeys?: "reject" | "strip";
}

/**
 * The zod schema of a create or update body for an entity. Creates need every required field
 * that has no default; updates are partial, and `null` clears only optional fields. Undeclared
 * keys are errors (or dropped, with `unknownKeys: "strip"`), except `id`, `createdAt` and
 * `updatedAt`, which are always dropped.
 */
export function bodySchema(entity: EntityModel, mode: BodyMode, options: BodySchemaOptions = {}): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of entity.fields) {
    if (options.omit?.includes(field.name)) continue;
    const required = isRequired(field, entity);
    let schema = valueSchema(field, entity);
    if (!required) schema = schema.nullable();
    // The owner field is filled in from the caller when absent (docs/api.md#permissions): never required in a body.
    const filledIn = field.name === entity.ownerField;
    if (mode === "update" || field.default !== undefined || !required || filledIn) schema = schema.optional();
    // Defaults fill absent keys on create only (`defaultsFor`), never in the schema itself.
    shape[field.name] = mode === "create" && field.default !== undefined ? schema.meta({ default: field.default }) : schema;
  }
  for (const key of options.extraKeys ?? []) shape[key] = z.string({ error: "must be a string" }).optional();
  if (options.unknownKeys === "strip") return z.object(shape);
  for (const key of ignoredKeysOf(entity)) shape[key] = z.unknown().optional();
  return z.strictObject(shape);
}
