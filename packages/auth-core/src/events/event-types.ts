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
] as const;

/** One kind of security event: `login.succeeded`, `role.changed`… */
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/** `true` for a string that names a kind of security event. */
export function isSecurityEventType(value: string): value is SecurityEventType {
  return (SECURITY_EVENT_TYPES as readonly string[]).includes(value);
}

/** The few facts an event keeps beside its columns: short words, numbers and flags, never a secret. */
export type EventDetail = Readonly<Record<string, string | number | boolean | null>>;

/** A security event, as the API answers it and `onEvent` receives it. */
export interface SecurityEvent {
  /** 28 lower-case hex digits: the time, a sequence and random bytes. */
  readonly id: string;
  /** When it happened, ISO 8601 (UTC, milliseconds). */
  readonly at: string;
  readonly type: SecurityEventType;
  /** The user it is about; `null` when none is known (a failed login for an email no account has). */
  readonly userId: string | null;
  /** Who made it happen: the user themselves, an administrator, or `null` (an anonymous request, a command). */
  readonly actorId: string | null;
  /** The user's email then, or the email a refused attempt named. */
  readonly email: string | null;
  /** The client address, as login throttling counts it; `null` outside a request. */
  readonly address: string | null;
  /** The client's `User-Agent`, at most {@link MAX_EVENT_USER_AGENT_LENGTH} characters. */
  readonly userAgent: string | null;
  /** The session it started, ended or was made from, when one is known. */
  readonly sessionId: string | null;
  readonly detail: EventDetail;
}

/** The most of a `User-Agent` an event keeps (as a session does). */
export const MAX_EVENT_USER_AGENT_LENGTH = 256;

/** The most events one page of `GET events` holds, and how many when `limit` is not given. */
export const EVENT_PAGE_LIMITS = { max: 100, default: 20 } as const;

/** How long events are kept when `AUTH_EVENT_RETENTION` is not set, in days. */
export const DEFAULT_EVENT_RETENTION_DAYS = 90;
