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
