/** `AUTH_REFRESH_TTL`'s default: 30 days. */
export const DEFAULT_REFRESH_TTL_SECONDS = 30 * 24 * 3600;
/** `AUTH_SESSION_MAX_AGE`'s default: 90 days. */
export const DEFAULT_SESSION_MAX_AGE_SECONDS = 90 * 24 * 3600;
/** A spent refresh token presented again this soon after its rotation is refused without revoking (two tabs at once). */
export const REUSE_GRACE_MS = 10_000;
/** `AUTH_REAUTH_WINDOW`'s default: a session that signed in within 10 minutes may add a factor or a key without its password. */
export const DEFAULT_REAUTH_WINDOW_SECONDS = 600;
