import type { AuthView } from "./domain-view";

/** A user profile as the API returns it: `id`, `email`, `role`, declared fields and timestamps. */
export interface UserProfile {
  readonly id: string;
  readonly email: string;
  readonly role: string | null;
  readonly createdAt?: string;
  readonly updatedAt?: string;
  readonly [field: string]: unknown;
}

/**
 * What the pages show of a profile: all of it where the domain has `me`; without `me`, only what
 * the sign-in token carries (id, email and role), as the API itself would tell the user no more.
 */
export function shownProfile(auth: Pick<AuthView, "endpoints">, user: UserProfile): UserProfile {
  if (auth.endpoints.me) return user;
  return { id: user.id, email: user.email, role: user.role };
}
