/**
 * Why a provider's callback signed nobody in (docs/providers.md#errors): the `error` of
 * `/login?error=` (`/profile?error=` after a link), each with the sentence the page shows. No
 * dependency: the pages hold this table too.
 */
export const PROVIDER_ERRORS = {
  OAUTH_STATE: "This sign-in link expired, was already used or was opened in another browser. Start again from this page.",
  OAUTH_DENIED: "The sign-in was cancelled at the provider. Nothing changed; try again when you are ready.",
  OAUTH_FAILED: "The provider's answer could not be checked, or the provider could not be reached. Try again in a moment.",
  ACCOUNT_EXISTS:
    "An account with this email already exists. Sign in with its password (or reset it), then connect this provider from your profile.",
  EMAIL_NOT_VERIFIED: "The provider did not confirm this email address. Confirm it there, or sign in another way.",
  REGISTRATION_CLOSED: "New accounts cannot be created here. Ask an administrator for an invitation.",
  IDENTITY_TAKEN: "This account at the provider is already connected to another user of this site.",
  TOO_MANY_ATTEMPTS: "Too many sign-in attempts from here. Wait a minute, then try again.",
} as const;

/** A reason a provider's callback signed nobody in. */
export type ProviderError = keyof typeof PROVIDER_ERRORS;

/** `true` for a code of {@link PROVIDER_ERRORS} (a page reads it from its query). */
export function isProviderError(value: unknown): value is ProviderError {
  return typeof value === "string" && Object.hasOwn(PROVIDER_ERRORS, value);
}
