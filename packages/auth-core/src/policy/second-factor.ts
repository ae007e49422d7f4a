/** How long an mfa token lives: 5 minutes (docs/mfa.md). */
export const MFA_TOKEN_TTL_SECONDS = 300;

/** What finishes a second step (docs/mfa.md): a code of the authenticator app, a recovery code, a passkey. */
export const SECOND_FACTOR_METHODS = ["totp", "recovery", "passkey"] as const;

/** One way to finish a second step. */
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** What the second-factor rules read of the `auth` block: the core's `AuthModel` fits. */
export interface SecondFactorAuth {
  readonly mfa: { readonly totp: boolean; readonly passkeys: boolean; readonly required: readonly string[] };
}

/**
 * Whether a user of `role` without a second factor must enrol one before any session starts
 * (docs/mfa.md: `auth.mfa.required`). With both factors off there is nothing to enrol, so no role
 * is held to it.
 */
export function mustEnrolSecondFactor(auth: SecondFactorAuth, role: string | null): boolean {
  return (auth.mfa.totp || auth.mfa.passkeys) && role !== null && auth.mfa.required.includes(role);
}
