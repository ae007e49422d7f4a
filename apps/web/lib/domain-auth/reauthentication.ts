import type { ErrorBody } from "@domain-auth/core/policy";
import type { ApiResult } from "./api-request";

/**
 * Whether the API asked to confirm who the user is before a sensitive action (adding a second
 * factor or an API key when the session signed in too long ago): the page then asks for the
 * password and sends the request again with `currentPassword`.
 */
export function needsReauthentication(result: ApiResult<unknown>): boolean {
  return !result.ok && result.error.code === "REAUTHENTICATION_REQUIRED";
}

/** Sends a sensitive request again with the password the user typed: the API's error, or `null` once it went through. */
export type RetryWithPassword = (currentPassword: string) => Promise<ErrorBody | null>;
