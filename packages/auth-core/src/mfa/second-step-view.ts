import { z } from "zod";
import { MFA_TOKEN_TTL_SECONDS, SECOND_FACTOR_METHODS } from "../policy/second-factor.js";

const mfaToken = z.string().describe(`Single use, for ${MFA_TOKEN_TTL_SECONDS / 60} minutes.`);

/** The answer to a right password when a second factor must follow (docs/mfa.md). The OpenAPI document shows this schema. */
export const mfaChallengeSchema = z
  .object({
    mfaRequired: z.literal(true),
    mfaToken,
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
    expiresIn: z.int().describe("Seconds the `mfaToken` lives."),
  })
  .describe(
    "No session yet: send the `mfaToken` with a code, a recovery code or a passkey's answer (`passkey` in `methods`) to `login/mfa`.",
  );

/** A second step to take before a session starts. */
export type MfaChallenge = z.output<typeof mfaChallengeSchema>;

/** The answer to a right password when the role must set up a second factor first (docs/mfa.md). */
export const mfaEnrollmentSchema = z
  .object({ mfaEnrollmentRequired: z.literal(true), mfaToken })
  .describe(
    "No session yet: your role requires a second factor. Send the `mfaToken` as the bearer token to `mfa/totp`, then `mfa/totp/confirm`, or to `passkeys/options`, then `passkeys`: the confirming answer signs you in.",
  );

/** A second factor to set up before a session starts. */
export type MfaEnrollment = z.output<typeof mfaEnrollmentSchema>;
