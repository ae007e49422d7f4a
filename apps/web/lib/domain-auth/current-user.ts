import type { AuthView } from "./domain-view";
import { shownProfile, type UserProfile } from "./profile";
import { useSession } from "./session";

export type { UserProfile } from "./profile";

/** Who is signed in to this browser, as far as the page knows. */
export type CurrentUser =
  | { readonly status: "signed-out"; readonly expired: boolean }
  | { readonly status: "signed-in"; readonly user: UserProfile; readonly source: "me" | "token" };

/**
 * The signed-in user: as the server rendered the page (its `currentUser()`), then as this tab and
 * the others sign in, renew and sign out. Where the domain has no `me`, only what the sign-in token
 * carries (`source: "token"`). A session the server refused (after one refresh attempt) is
 * `signed-out` with `expired`.
 */
export function useCurrentUser(auth: Pick<AuthView, "endpoints">): CurrentUser {
  const session = useSession();
  if (session.status === "signed-out") return session;
  return { status: "signed-in", user: shownProfile(auth, session.user), source: auth.endpoints.me ? "me" : "token" };
}
