import type { AuthView } from "./domain-view";
import { sessionClient } from "./session";

/**
 * Signs the browser out: `POST /api/<auth>/logout` (where the domain has it) revokes the session on
 * every instance and clears its cookies; then every open tab shows it.
 */
export function signOut(auth: Pick<AuthView, "segment" | "endpoints">): Promise<void> {
  return sessionClient().signOut(auth);
}
