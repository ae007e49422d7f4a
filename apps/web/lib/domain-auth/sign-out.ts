import type { AuthView } from "./domain-view";
import { sessionClient } from "./session-client";

/**
 * Signs the tab out: `POST /api/<auth>/logout` (where the domain has it) revokes the session on
 * every instance, then the tab forgets its tokens, whatever the server answered.
 */
export function signOut(auth: Pick<AuthView, "segment" | "endpoints">): Promise<void> {
  return sessionClient().signOut(auth);
}
