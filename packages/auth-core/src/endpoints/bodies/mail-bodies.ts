import { z } from "zod";
import { transportSchema } from "../../accounts/auth-body-schemas.js";
import { passwordProblem } from "../../password/rules.js";
import { EMAIL_DOCS } from "../../records/body-schema.js";
import { emailProblem, normalizeEmail } from "../../records/email.js";

const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`);

/** An email as register takes it: normalized, then checked (docs/api.md#login). */
const emailSchema = z
  .string({ error: required("a string") })
  .max(1024, "is too long")
  .transform((value, context) => {
    const email = normalizeEmail(value);
    const problem = email.includes("\u0000") ? "must not contain U+0000" : emailProblem(email);
    if (problem) context.addIssue({ code: "custom", message: problem });
    return email;
  })
  .meta(EMAIL_DOCS);

/** A token from a link: a non-empty string (an unknown one is answered by the route, not here). */
const tokenSchema = z
  .string({ error: required("a string") })
  .min(1, "must not be empty")
  .max(1024, "is too long")
  .refine((token) => !token.includes("\u0000"), "must not contain U+0000");

/** `POST forgot-password` and `POST resend-verification`: `{ email }`. */
export const emailRequestBodySchema = z.object({ email: emailSchema });

/** `POST reset-password`: `{ token, password }`, the password under the rules of docs/api.md#login. */
export const resetPasswordBodySchema = z.object({
  token: tokenSchema,
  password: z.string({ error: required("a string") }).superRefine((password, context) => {
    const problem = passwordProblem(password);
    if (problem) context.addIssue({ code: "custom", message: problem });
  }),
  transport: transportSchema,
});

/** `POST verify-email`: `{ token }`. */
export const verifyEmailBodySchema = z.object({ token: tokenSchema });
