import { apiPaths, type ErrorBody } from "@domain-auth/core/policy";
import type { ApiFailure } from "./api-request";
import type { AuthView } from "./domain-view";
import { sessionClient } from "./session";
import type { SignedInAnswer } from "./session-client";

/** The endpoints that sign a user in. */
export type SignInEndpoint = "login" | "setup" | "resetPassword";

/**
 * Posts to `/api/<auth>/<endpoint>` with `transport: "cookie"` (CONTRACT §14): the answer sets the
 * session cookies, which no script can read, and names the user, whom every tab then shows.
 * Resolves to the failure, or `null` once signed in. Never renews a session on a 401: a wrong
 * password is the answer.
 */
export async function signIn(
  auth: Pick<AuthView, "segment">,
  endpoint: SignInEndpoint,
  body: Readonly<Record<string, unknown>>,
): Promise<ApiFailure | null> {
  const client = sessionClient();
  const result = await client.request<SignedInAnswer>(apiPaths(auth)[endpoint], { method: "POST", body: { ...body, transport: "cookie" } });
  if (!result.ok) return result;
  client.signedIn(result.data);
  return null;
}

/** A refused call's error; a throttled sign-in's message says how long the server asked to wait. */
export function describeSignInError({ error, retryAfter }: Pick<ApiFailure, "error" | "retryAfter">): ErrorBody {
  if (error.code !== "TOO_MANY_ATTEMPTS" || retryAfter === undefined) return error;
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  return { ...error, message: `${error.message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` };
}
