/** What the second-factor rules read of the `auth` block: the core's `AuthModel` fits. */
export interface SecondFactorAuth {
  readonly mfa: { readonly totp: boolean; readonly required: readonly string[] };
}

/**
 * Whether a user of `role` without a second factor must enrol one before any session starts
 * (CONTRACT 15: `auth.mfa.required`). Only TOTP can be enrolled for now, so with `totp` off no
 * role is held to it.
 */
export function mustEnrolSecondFactor(auth: SecondFactorAuth, role: string | null): boolean {
  return auth.mfa.totp && role !== null && auth.mfa.required.includes(role);
}
