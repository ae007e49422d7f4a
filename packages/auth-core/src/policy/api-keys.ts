import type { Operation } from "../config/index.js";
import { credentialChanges } from "./credentials.js";
import { holdsSetupRole } from "./setup-role.js";
import type { Caller, PolicyAuth, PolicyRecord } from "./subjects.js";
import { ALLOWED, forbidden, type Verdict, verbOf } from "./verdict.js";

/** The operations a scope may name, in the order the pages show them. */
export const API_KEY_OPERATIONS = ["read", "create", "update", "delete"] as const satisfies readonly Operation[];

/** The prefix of every API key: a bearer token that starts with it is checked as a key, never as a JWT. */
export const API_KEY_PREFIX = "da_";

/** The limits of a key's name and scopes (CONTRACT 17). */
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
 * A key's scopes narrow what its user may do on the entity endpoints (CONTRACT 17): `null` allows
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

/**
 * An update of a user through an API key (CONTRACT 17): never a password or an email (anyone's),
 * nor the caller's own role.
 */
export function checkKeyUserUpdate(caller: Caller, user: PolicyRecord, values: PolicyRecord): Verdict {
  const changes = credentialChanges(user, values);
  const ownRole = caller !== null && user.id === caller.id && Object.hasOwn(values, "role") && values.role !== user.role;
  return changes.password || changes.email || ownRole ? forbidden(API_KEY_REFUSAL) : ALLOWED;
}

/** Listing or revoking another user's keys: the setup role only. */
export function checkKeyManager(auth: PolicyAuth, caller: NonNullable<Caller>, userId: string): Verdict {
  if (userId === caller.id || holdsSetupRole(auth, caller.role)) return ALLOWED;
  return forbidden(`Only the ${auth.setupRole} role may manage another user's API keys`);
}
