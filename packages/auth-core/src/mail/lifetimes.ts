/** What a link in an e-mail is for. */
export type AccountTokenKind = "reset" | "verify" | "invite";

/** How long each kind of link works, in seconds (docs/mail.md): reset 30 minutes, verification 24 hours, invitation 7 days. */
export const ACCOUNT_TOKEN_LIFETIMES: Readonly<Record<AccountTokenKind, number>> = {
  reset: 30 * 60,
  verify: 24 * 3600,
  invite: 7 * 24 * 3600,
};
