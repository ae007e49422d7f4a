import { z } from "zod";
import type { EntityModel } from "../config/index.js";
import { type BodySchemaOptions, bodySchema } from "../records/body-schema.js";
import { normalizeEmail } from "../records/email.js";

const requiredString = (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : "must be a string");

/**
 * How a sign-in answers (docs/api.md#cookie-sessions): `body`, the tokens in the JSON answer; `cookie`, in two
 * HttpOnly cookies instead (the answer then has no `token`, `tokenType` or `refreshToken`).
 */
export const transportSchema = z
  .enum(["body", "cookie"], { error: 'must be "body" or "cookie"' })
  .optional()
  .describe("`cookie`: the tokens are set as HttpOnly cookies instead of answered (default `body`).");

/** Where a sign-in's tokens go. */
export type Transport = NonNullable<z.output<typeof transportSchema>>;

/** The body of `POST login`: what it validates, and what the OpenAPI document describes. */
export const loginBodySchema = z.object({
  email: z
    .string({ error: requiredString })
    .max(1024, "is too long")
    // PostgreSQL text cannot hold U+0000 (the lookup and the throttle key would fail); no account has it.
    .refine((email) => !email.includes("\u0000"), { message: "must not contain U+0000", abort: true })
    // No account has one either (register refuses them), and a newline inside would be a line of its
    // own wherever the failed attempt is logged. Around the address they are trimmed, as spaces are.
    .refine((email) => !/\p{Cc}/u.test(normalizeEmail(email)), "must not contain control characters"),
  password: z.string({ error: requiredString }).max(1024, "is too long"),
  transport: transportSchema,
});

/** The body of `POST refresh`: what it validates, and what the OpenAPI document describes. */
export const refreshBodySchema = z
  .object({
    refreshToken: z
      .string({ error: requiredString })
      .min(1, "must not be empty")
      .max(1024, "is too long")
      .optional()
      .describe("Required unless `transport` is `cookie`, which reads the refresh cookie instead."),
    transport: transportSchema,
  })
  .superRefine((body, context) => {
    if (body.refreshToken === undefined && body.transport !== "cookie")
      context.addIssue({ code: "custom", path: ["refreshToken"], message: "is required" });
  });

/** How register and setup read the auth entity's create body: no `role`, and other unknown keys ignored. */
export const SIGN_UP_BODY_OPTIONS: BodySchemaOptions = { omit: ["role"], unknownKeys: "strip" };

/** The body of register and setup: the auth entity's create body read with {@link SIGN_UP_BODY_OPTIONS}. */
export function signUpBodySchema(entity: EntityModel): z.ZodType<Record<string, unknown>> {
  return bodySchema(entity, "create", SIGN_UP_BODY_OPTIONS);
}
