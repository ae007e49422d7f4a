import { apiPaths, type Segmented } from "@domain-auth/core/policy";
import { type ApiError, callApi } from "@/lib/domain-auth/api";
import type { UserProfile } from "@/lib/domain-auth/current-user";
import { storeToken } from "@/lib/domain-auth/session";

/** The body of a response that signs a user in (login and setup). */
export interface TokenResponse {
  readonly token: string;
  readonly tokenType: "Bearer";
  readonly expiresIn: number;
  readonly user: UserProfile;
}

/** Posts credentials to `/api/<auth>/<endpoint>` and keeps the returned token; resolves to the error, or `null`. */
export async function requestToken(auth: Segmented, endpoint: "login" | "setup", body: unknown): Promise<ApiError | null> {
  const result = await callApi<TokenResponse>(apiPaths(auth)[endpoint], { method: "POST", body });
  if (!result.ok) return result.error;
  storeToken(result.data.token);
  return null;
}

/** A throttled sign-in's message with the wait the server asked for. */
export function describeSignInError(error: ApiError): ApiError {
  if (error.code !== "TOO_MANY_ATTEMPTS" || error.retryAfter === undefined) return error;
  const minutes = Math.max(1, Math.ceil(error.retryAfter / 60));
  return { ...error, message: `${error.message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` };
}
