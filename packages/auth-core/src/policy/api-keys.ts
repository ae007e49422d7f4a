import type { Operation } from "../config/vocabulary.js";
import { credentialChanges } from "./credentials.js";
import { checkOtherUser } from "./setup-role.js";
import type { Caller, PolicyAuth, PolicyRecord } from "./subjects.js";
import { ALLOWED, forbidden, type Verdict, verbOf } from "./verdict.js";

/** The operations a scope may name, in the order the pages show them. */
export const API_KEY_OPERATIONS = ["read", "create", "update", "delete"] as const satisfies readonly Operation[];

/** The prefix of every API key: a bearer token that starts with it is checked as a key, never as a JWT. */
export const API_KEY_PREFIX = "da_";

/** The limits of a key's name and scopes (docs/api-keys.md). */
export const API_KEY_LIMITS = {
  /** Characters of a key's name. */
  maxNameLength: 100,
  /** A user's live keys. */
  maxKeysPerUser: 100,
} as const;

/** How long a key's `lastUsedAt` stays as it is before a use writes it again. */
export const API_KEY_USE_INTERVAL_MS = 60_000;

/** `true` for a bearer token that is an API key (by its prefix). */
export function isApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** A scope: `<entity segment>:<operation>`, such as `post:read`. */
export function scopeOf(segment: string, operation: Operation): string {
  return `${segment}:${operation}`;
}

/** Every scope a key of this domain may carry: each entity's segment with each operation. */
export function apiKeyScopes(entities: readonly { readonly segment: string }[]): string[] {
  return entities.flatMap((entity) => API_KEY_OPERATIONS.map((operation) => scopeOf(entity.segment, operation)));
}

/**
 * A key's scopes narrow what its user may do on the entity endpoints (docs/api-keys.md): `null` allows
 * every operation the user's role allows; a list only the operations it names.
 */
export function checkKeyScope(scopes: readonly string[] | null, segment: string, operation: Operation): Verdict {
  if (scopes === null || scopes.includes(scopeOf(segment, operation))) return ALLOWED;
  return forbidden(
    `This API key may not ${verbOf(operation)} ${segment} records: its scopes do not include ${scopeOf(segment, operation)}`,
  );
}

/** Why an API key is refused where it is never accepted: credentials, sessions, factors and keys need a signed-in session. */
export const API_KEY_REFUSAL =
  "An API key cannot be used here: managing passwords, email, roles, sessions, second factors and API keys needs a signed-in session";

/** Why an API key may not write a user's credentials or role, anyone's. */
export const API_KEY_CREDENTIALS_REFUSAL =
  "An API key cannot set a user's password, email or role, on create or update: that needs a signed-in session";

/** The fields of a user an API key never writes (docs/security.md#sensitive-actions). */
const KEY_UNWRITABLE_USER_FIELDS = ["password", "email", "role"] as const;

/**
 * A new user through an API key: a body that sets any of `password`, `email` or `role` is refused
 * (so a key can create no user that could sign in), an administrator's key included.
 */
export function checkKeyUserCreate(body: PolicyRecord): Verdict {
  return KEY_UNWRITABLE_USER_FIELDS.some((field) => Object.hasOwn(body, field)) ? forbidden(API_KEY_CREDENTIALS_REFUSAL) : ALLOWED;
}

/**
 * An update of a user through an API key: never a new password, email or role, anyone's, an
 * administrator's key included (a key must not become a session that outlives its owner's recovery).
 */
export function checkKeyUserUpdate(user: PolicyRecord, values: PolicyRecord): Verdict {
  const changes = credentialChanges(user, values);
  const role = Object.hasOwn(values, "role") && (values.role ?? null) !== (user.role ?? null);
  return changes.password || changes.email || role ? forbidden(API_KEY_CREDENTIALS_REFUSAL) : ALLOWED;
}

/** Listing or revoking another user's keys: the setup role only. */
export function checkKeyManager(auth: PolicyAuth, caller: NonNullable<Caller>, userId: string): Verdict {
  return checkOtherUser(auth, caller, userId, "manage another user's API keys");
}
