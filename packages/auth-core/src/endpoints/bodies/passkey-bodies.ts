import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { transportSchema } from "../../accounts/auth-body-schemas.js";

const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`);

/** A base64url field of a WebAuthn response; the library checks what it holds. */
const base64url = (max: number) =>
  z
    .string({ error: required("a base64url string") })
    .max(max, "is too long")
    .regex(/^[A-Za-z0-9_-]*$/, "must be base64url");

/** What every WebAuthn response carries, as `@simplewebauthn/browser` sends it. */
const credentialFields = {
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal("public-key", { error: 'must be "public-key"' }),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

/** A registration response (`startRegistration()`'s result). */
const registrationResponseSchema = z
  .looseObject({
    ...credentialFields,
    response: z.looseObject({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(8192),
      transports: z.array(z.string().max(32)).max(8).optional(),
    }),
  })
  .describe("What `startRegistration()` of `@simplewebauthn/browser` (or `navigator.credentials.create()`, as JSON) gives.")
  .transform((value) => value as unknown as RegistrationResponseJSON);

/** An authentication response (`startAuthentication()`'s result). */
export const authenticationResponseSchema = z
  .looseObject({
    ...credentialFields,
    response: z.looseObject({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(4096),
      signature: base64url(2048),
      userHandle: base64url(1024).optional(),
    }),
  })
  .describe("What `startAuthentication()` of `@simplewebauthn/browser` (or `navigator.credentials.get()`, as JSON) gives.")
  .transform((value) => value as unknown as AuthenticationResponseJSON);

/** `POST passkeys`: the registration response, a name to know it by, and after a required enrolment the transport. */
export const addPasskeyBodySchema = z.object({
  response: registrationResponseSchema,
  name: z
    .string({ error: required("a string") })
    .trim()
    .min(1, "must not be empty")
    .max(64, "must be at most 64 characters")
    .optional()
    .describe('A name to tell it from your other passkeys (default "Passkey").'),
  transport: transportSchema.describe(
    "With an enrolment `mfaToken` as the bearer token: `cookie` sets the session's tokens as HttpOnly cookies (default `body`).",
  ),
});

/** `POST login/passkey/options`: nothing for a sign-in with a passkey alone, or the `mfaToken` of a second step. */
export const passkeySignInOptionsBodySchema = z.object({
  mfaToken: z
    .string({ error: required("a string") })
    .min(1, "must not be empty")
    .max(1024, "is too long")
    .optional()
    .describe("The `mfaToken` login answered with, when the passkey is the second step: the options then list the user's passkeys."),
  secondStep: z
    .literal(true, { error: "must be true when given" })
    .optional()
    .describe("The second step after a provider's sign-in, whose `mfaToken` is in an HttpOnly cookie: instead of `mfaToken`."),
});

/** `POST login/passkey`: the authentication response. */
export const loginPasskeyBodySchema = z.object({ response: authenticationResponseSchema, transport: transportSchema });
