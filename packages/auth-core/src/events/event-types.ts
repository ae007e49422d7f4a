/**
 * The security events (docs/events.md), with no dependency: pages and tools that show or filter them
 * hold this list too.
 */
export const SECURITY_EVENT_TYPES = [
  "setup",
  "register",
  "login.succeeded",
  "login.failed",
  "login.locked",
  "logout",
  "session.revoked",
  "session.reuse_detected",
  "password.changed",
  "password.reset_requested",
  "password.reset",
  "email.changed",
  "email.verified",
  "role.changed",
  "user.created",
  "user.deleted",
  "invitation.sent",
  "mfa.enabled",
  "mfa.disabled",
  "mfa.failed",
  "passkey.added",
  "passkey.removed",
  "api_key.created",
  "api_key.revoked",
  "identity.linked",
  "identity.unlinked",
  "organization.created",
  "organization.deleted",
  "member.added",
  "member.role_changed",
  "member.removed",
  "invitation.accepted",
] as const;

/** One kind of security event: `login.succeeded`, `role.changed`… */
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/** `true` for a string that names a kind of security event. */
export function isSecurityEventType(value: string): value is SecurityEventType {
  return (SECURITY_EVENT_TYPES as readonly string[]).includes(value);
}

/** The few facts an event keeps beside its columns: short words, numbers and flags, never a secret. */
export type EventDetail = Readonly<Record<string, string | number | boolean | null>>;

/** The most of a `User-Agent` an event keeps (as a session does). */
export const MAX_EVENT_USER_AGENT_LENGTH = 256;

/** The most events one page of `GET events` holds, and how many when `limit` is not given. */
export const EVENT_PAGE_LIMITS = { max: 100, default: 20 } as const;

/** How long events are kept when `AUTH_EVENT_RETENTION` is not set, in days. */
export const DEFAULT_EVENT_RETENTION_DAYS = 90;

/**
 * The events the activity summary (`GET events/summary`) counts as sign-ins: one per session
 * started, however it was made (a password, a second step, a passkey, a provider, a reset link).
 * A password that needs a second factor starts none: its sign-in counts once, at the second step.
 */
export const SIGN_IN_EVENT_TYPES = ["login.succeeded"] as const satisfies readonly SecurityEventType[];

/**
 * The events the activity summary counts as failed sign-in attempts: each wrong answer the login
 * throttle counts (a wrong or unknown password, an unverified email, a refused passkey or
 * provider sign-in, a wrong TOTP or recovery code). A request refused with 429 compared nothing:
 * it is not one (the lock is `login.locked`).
 */
export const FAILED_SIGN_IN_EVENT_TYPES = ["login.failed", "mfa.failed"] as const satisfies readonly SecurityEventType[];

/** The windows of the activity summary: the last 24 hours in hours, or the last 7 days in UTC days. */
export const EVENT_SUMMARY_WINDOWS = ["24h", "7d"] as const;

/** A window of the activity summary. */
export type EventSummaryWindow = (typeof EVENT_SUMMARY_WINDOWS)[number];

/** How many client addresses the activity summary lists, those with the most failed attempts first. */
export const TOP_FAILING_ADDRESSES = 5;
