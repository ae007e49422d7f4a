import { apiPaths } from "@domain-auth/core/policy";
import { type ApiError, callApi } from "@/lib/domain-auth/api";
import type { UserProfile } from "@/lib/domain-auth/current-user";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { storeTokens } from "@/lib/domain-auth/session";

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
  storeTokens({ token: response.token, refreshToken: auth.endpoints.refresh ? response.refreshToken : null });
}

/** Posts credentials to `/api/<auth>/<endpoint>` and keeps the returned tokens; resolves to the error, or `null`. */
export async function requestToken(
  auth: Pick<AuthView, "segment" | "endpoints">,
  endpoint: "login" | "setup",
  body: unknown,
): Promise<ApiError | null> {
  const result = await callApi<TokenResponse>(apiPaths(auth)[endpoint], { method: "POST", body });
  if (!result.ok) return result.error;
  keepTokens(auth, result.data);
  return null;
}

/** A throttled sign-in's message with the wait the server asked for. */
export function describeSignInError(error: ApiError): ApiError {
  if (error.code !== "TOO_MANY_ATTEMPTS" || error.retryAfter === undefined) return error;
  const minutes = Math.max(1, Math.ceil(error.retryAfter / 60));
  return { ...error, message: `${error.message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` };
}
