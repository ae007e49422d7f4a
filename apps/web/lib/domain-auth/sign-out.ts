import { apiPaths } from "@domain-auth/core/policy";
import { callApi } from "./api";
import type { AuthView } from "./domain-view";
import { clearTokens, readToken } from "./session";

/**
 * Signs the tab out: `POST /api/<auth>/logout` (where the domain has it) revokes the session on
 * every instance, then the tab forgets its tokens, whatever the server answered.
 */
export async function signOut(auth: Pick<AuthView, "segment" | "endpoints">): Promise<void> {
  const token = readToken();
  if (token && auth.endpoints.logout) await callApi(apiPaths(auth).logout, { method: "POST", token });
  clearTokens();
}
