import {
  apiPaths,
  type ErrorBody,
  itemPath,
  type PasskeySummary,
  type SessionView,
  type TotpStatus,
  userSessionsPath,
} from "@domain-auth/core/policy";
import { ADMIN_PATH } from "./admin-sections";
import { callApi } from "./api";
import type { AuthView } from "./domain-view";
import type { UserProfile } from "./profile";
import { useLoaded } from "./use-loaded";

/** What one read of the user's page holds: its answer once it came, `null` before (or when not read). */
export interface UserRead<T> {
  readonly value: T | null;
  readonly error: ErrorBody | null;
  readonly loading: boolean;
}

/**
 * Reads `path` as the signed-in user whenever `version` changes (`null`: reads nothing), the last
 * answer staying on show while the next one loads.
 */
function useRead<T, R>(path: string | null, version: number, pick: (data: T) => R): UserRead<R> {
  const loaded = useLoaded(path === null ? null : JSON.stringify([path, version]), () => callApi<T>(path ?? ""));
  const answer = loaded.value;
  return {
    value: answer?.ok ? pick(answer.data) : null,
    error: answer && !answer.ok ? answer.error : null,
    loading: loaded.loading,
  };
}

/** `path` with `?userId=`: the setup role's read of another user's list or status. */
function ofUser(path: string, userId: string): string {
  return `${path}?${new URLSearchParams({ userId })}`;
}

/** One user as `GET /api/<auth>/<id>` answers it (404 `NOT_FOUND` for an unknown id). */
export function useUser(auth: Pick<AuthView, "segment">, id: string, version: number): UserRead<UserProfile> {
  return useRead(itemPath(auth, id), version, (data: { item: UserProfile }) => data.item);
}

/** A user's signed-in sessions, newest first (`GET sessions?userId=`, setup role); nothing read where the domain has no `sessions`. */
export function useUserSessions(auth: Pick<AuthView, "segment" | "endpoints">, userId: string, version: number): UserRead<SessionView[]> {
  const path = auth.endpoints.sessions ? userSessionsPath(auth, userId) : null;
  return useRead(path, version, (data: { items: SessionView[] }) => data.items);
}

/** A user's passkeys, oldest first (`GET passkeys?userId=`); nothing read where the domain has no passkeys. */
export function useUserPasskeys(
  auth: Pick<AuthView, "segment" | "endpoints">,
  userId: string,
  version: number,
): UserRead<PasskeySummary[]> {
  const path = auth.endpoints.passkeys ? ofUser(apiPaths(auth).passkeys, userId) : null;
  return useRead(path, version, (data: { items: PasskeySummary[] }) => data.items);
}

/** Whether a user's two-step verification is on, and their recovery codes left (`GET mfa/totp?userId=`); nothing read without TOTP. */
export function useUserTotp(auth: Pick<AuthView, "segment" | "endpoints">, userId: string, version: number): UserRead<TotpStatus> {
  const path = auth.endpoints.totp ? ofUser(apiPaths(auth).totp, userId) : null;
  return useRead(path, version, (data: TotpStatus) => data);
}

/** The query parameter of the Activity page that opens it on one user's events. */
export const ACTIVITY_USER_PARAMETER = "user";

/** The admin's Activity page on one user's events: `/admin/activity?user=<id>`. */
export function userActivityHref(userId: string): string {
  return `${ADMIN_PATH}/activity?${new URLSearchParams({ [ACTIVITY_USER_PARAMETER]: userId })}`;
}
