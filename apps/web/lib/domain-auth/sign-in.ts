import { apiPaths, type ErrorBody } from "@domain-auth/core/policy";
import { type ApiFailure, callApi } from "@/lib/domain-auth/api";
import type { UserProfile } from "@/lib/domain-auth/current-user";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { sessionClient } from "@/lib/domain-auth/session-client";

/** The body of a response that signs a user in (login, setup and refresh). */
export interface TokenResponse {
  readonly token: string;
  readonly tokenType: "Bearer";
  readonly expiresIn: number;
  readonly refreshToken: string;
  readonly refreshExpiresIn: number;
  readonly user: UserProfile;
}

/** Keeps the tokens of a sign-in for this tab: the refresh token only where the domain has `refresh`. */
export function keepTokens(auth: Pick<AuthView, "endpoints">, response: TokenResponse): void {
  sessionClient().store({ token: response.token, refreshToken: auth.endpoints.refresh ? response.refreshToken : null });
}

/** Posts credentials to `/api/<auth>/<endpoint>` and keeps the returned tokens; resolves to the failure, or `null`. */
export async function requestToken(
  auth: Pick<AuthView, "segment" | "endpoints">,
  endpoint: "login" | "setup",
  body: unknown,
): Promise<ApiFailure | null> {
  const result = await callApi<TokenResponse>(apiPaths(auth)[endpoint], { method: "POST", body });
  if (!result.ok) return result;
  keepTokens(auth, result.data);
  return null;
}

/** A refused call's error; a throttled sign-in's message says how long the server asked to wait. */
export function describeSignInError({ error, retryAfter }: Pick<ApiFailure, "error" | "retryAfter">): ErrorBody {
  if (error.code !== "TOO_MANY_ATTEMPTS" || retryAfter === undefined) return error;
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  return { ...error, message: `${error.message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` };
}
