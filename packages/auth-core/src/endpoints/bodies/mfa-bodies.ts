import { z } from "zod";
import { transportSchema } from "../../accounts/auth-body-schemas.js";
import { authenticationResponseSchema } from "./passkey-bodies.js";

const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`);

/** A code of the authenticator app: six digits, spaces allowed between them (apps show `123 456`). */
const codeSchema = z
  .string({ error: required("a string") })
  .max(64, "is too long")
  .transform((code) => code.replace(/\s/g, ""))
  .refine((code) => /^\d{6}$/.test(code), "must be the 6 digits your authenticator app shows")
  .describe("The 6-digit code the authenticator app shows now.");

/** The current password, compared like a login's (at most 1 KiB read). */
const currentPasswordSchema = z
  .string({ error: required("a string") })
  .max(1024, "is too long")
  .describe("Your current password.");

/** `POST mfa/totp/confirm`: `{ code }`, and with an enrolment token how the session it starts is carried. */
export const confirmTotpBodySchema = z.object({
  code: codeSchema,
  transport: transportSchema.describe(
    "With an enrolment `mfaToken` as the bearer token: `cookie` sets the session's tokens as HttpOnly cookies (default `body`).",
  ),
});

/** `DELETE mfa/totp`: `{ currentPassword, code }`. */
export const disableTotpBodySchema = z.object({ currentPassword: currentPasswordSchema, code: codeSchema });

/** `POST mfa/recovery-codes`: `{ currentPassword }`. */
export const recoveryCodesBodySchema = z.object({ currentPassword: currentPasswordSchema });

/** `POST login/mfa`: the `mfaToken` of a login and a code, a recovery code or a passkey's answer. */
export const loginMfaBodySchema = z
  .object({
    mfaToken: z
      .string({ error: required("a string") })
      .min(1, "must not be empty")
      .max(1024, "is too long")
      .optional()
      .describe(
        "The `mfaToken` login answered with; after a provider's sign-in it is in an HttpOnly cookie instead, and this is left out.",
      ),
    code: codeSchema.optional(),
    recoveryCode: z
      .string({ error: required("a string") })
      .max(64, "is too long")
      .optional()
      .describe("One of the recovery codes, instead of `code`: each works once."),
    passkey: authenticationResponseSchema
      .optional()
      .describe("Instead of a code: a passkey's answer to the options of `login/passkey/options` called with this `mfaToken`."),
    transport: transportSchema,
  })
  .superRefine((body, context) => {
    const sent = [body.code, body.recoveryCode, body.passkey].filter((proof) => proof !== undefined);
    if (sent.length !== 1) context.addIssue({ code: "custom", path: ["code"], message: "send one of code, recoveryCode or passkey" });
  });
