import { apiPaths, type IdentityView, identityPath, type LinkStarted } from "@domain-auth/core/policy";
import type { ApiResult } from "./api-request";
import type { AuthView } from "./domain-view";
import type { SessionClient } from "./session-client";

/** What the calls need of the `auth` block: its segment, for the API's paths. */
export type IdentitiesAuth = Pick<AuthView, "segment">;

/** What the calls need of the tab's session client. */
export type IdentitiesClient = Pick<SessionClient, "call">;

/** `GET identities`: the signed-in user's accounts at providers, oldest first. */
export async function listIdentities(client: IdentitiesClient, auth: IdentitiesAuth): Promise<ApiResult<readonly IdentityView[]>> {
  const result = await client.call<{ items: IdentityView[] }>(apiPaths(auth).identities);
  return result.ok ? { ...result, data: result.data.items } : result;
}

/**
 * `POST identities/<provider>`: starts connecting an account (a recent sign-in, else 403
 * `REAUTHENTICATION_REQUIRED` until `currentPassword` is sent); the page then navigates to `url`.
 */
export function startLinking(
  client: IdentitiesClient,
  auth: IdentitiesAuth,
  provider: string,
  currentPassword?: string,
): Promise<ApiResult<LinkStarted>> {
  const body = currentPassword === undefined ? undefined : { currentPassword };
  return client.call<LinkStarted>(identityPath(auth, provider), { method: "POST", ...(body ? { body } : {}) });
}

/** `DELETE identities/<id>`: disconnects one (409 `LAST_SIGN_IN_METHOD` for the last way in). */
export function unlinkIdentity(client: IdentitiesClient, auth: IdentitiesAuth, id: string): Promise<ApiResult<null>> {
  return client.call<null>(identityPath(auth, id), { method: "DELETE" });
}
