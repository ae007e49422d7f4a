import { apiPaths, type ErrorBody } from "@domain-auth/core/policy";
import type { ApiFailure, ApiResult } from "./api-request";
import type { AuthView } from "./domain-view";
import { type SignInStep, takeSignInAnswer } from "./second-factor";
import { sessionClient } from "./session";

export type { SecondStep, SignInStep } from "./second-factor";

/** The endpoints that sign a user in. */
export type SignInEndpoint = "login" | "setup" | "resetPassword";

/**
 * Posts to `/api/<auth>/<endpoint>` with `transport: "cookie"` (docs/api.md#cookie-sessions): the answer sets the
 * session cookies, which no script can read, and names the user, whom every tab then shows. Resolves
 * to the failure, or to where the sign-in stands: signed in, or a second step the password opened
 * (docs/mfa.md: a code to ask for, or a factor to set up), with no session yet. Never renews a
 * session on a 401: a wrong password is the answer.
 */
export async function signIn(
  auth: Pick<AuthView, "segment">,
  endpoint: SignInEndpoint,
  body: Readonly<Record<string, unknown>>,
): Promise<ApiResult<SignInStep>> {
  const client = sessionClient();
  const result = await client.request<unknown>(apiPaths(auth)[endpoint], { method: "POST", body: { ...body, transport: "cookie" } });
  if (!result.ok) return result;
  return { ...result, data: takeSignInAnswer(client, result.data) };
}

/** A refused call's error; a throttled sign-in's message says how long the server asked to wait (its own says "later"). */
export function describeSignInError({ error, retryAfter }: Pick<ApiFailure, "error" | "retryAfter">): ErrorBody {
  if (error.code !== "TOO_MANY_ATTEMPTS" || retryAfter === undefined) return error;
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  return { ...error, message: `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` };
}
