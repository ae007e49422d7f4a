import {
  ACCEPT_INVITATION_PATH,
  type ErrorBody,
  type Invitation,
  MAX_ORGANIZATION_NAME_LENGTH,
  type Member,
  type MembershipAnswer,
  ORGANIZATIONS_PATH,
  type Organization,
  type OrganizationSummary,
  organizationPath,
} from "@domain-auth/core/policy";
import { useCallback, useSyncExternalStore } from "react";
import { type ApiResult, callApi } from "./api";
import { useLoaded } from "./use-loaded";

export type { Invitation, Member, MembershipAnswer, Organization, OrganizationSummary };

/** What a name the API refuses should be. */
export const NAME_SENTENCE = `Give the organization a name of 1 to ${MAX_ORGANIZATION_NAME_LENGTH} characters.`;
/** What a slug the API refuses should be (`SLUG_PATTERN`, said in words). */
export const SLUG_SENTENCE =
  "A slug is 2 to 39 lower-case letters, digits and dashes, starting with a letter or a digit (such as acme-inc).";
/** What a slug another organization holds calls for (409 `CONFLICT` on `slug`). */
export const SLUG_TAKEN_SENTENCE = "This slug is already taken: choose another.";

/** How many members a page of `GET orgs/<id>/members` holds on the organization's page. */
export const MEMBER_PAGE_SIZE = 50;

// What the tab did to the caller's organizations (created, joined, left, renamed, deleted): every
// list of them on show (the header's switcher, `/orgs`) loads again.
let changes = 0;
const listeners = new Set<() => void>();

/** Tells every list of the caller's organizations on show to load again. */
export function announceOrganizationsChanged(): void {
  changes += 1;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The caller's organizations as loaded: `items` is `null` until the first answer. */
export interface LoadedOrganizations {
  readonly items: readonly OrganizationSummary[] | null;
  readonly error: ErrorBody | null;
  /** Loads them again, here and in every other list on show. */
  readonly reload: () => void;
}

/** The signed-in user's organizations (`GET /api/orgs`), with their role in each; nothing while `userId` is `null` (signed out). */
export function useOrganizations(userId: string | null): LoadedOrganizations {
  const changed = useSyncExternalStore(
    subscribe,
    () => changes,
    () => 0,
  );
  const key = userId === null ? null : JSON.stringify([userId, changed]);
  const loaded = useLoaded(key, () => callApi<{ items: OrganizationSummary[] }>(ORGANIZATIONS_PATH));
  const reload = useCallback(() => announceOrganizationsChanged(), []);
  // Another user's list is never shown while this one's loads.
  const same = userId !== null && loaded.key !== null && JSON.parse(loaded.key)[0] === userId;
  const answer = same ? loaded.value : undefined;
  return { items: answer?.ok ? answer.data.items : null, error: answer && !answer.ok ? answer.error : null, reload };
}

/** `POST /api/orgs`: a new organization, whose first member the caller is. */
export function createOrganization(draft: { readonly name: string; readonly slug?: string }): Promise<ApiResult<MembershipAnswer>> {
  return callApi<MembershipAnswer>(ORGANIZATIONS_PATH, { method: "POST", body: draft });
}

/** `GET /api/orgs/<id>`: the organization and the caller's role in it (`null`: the setup role's support access). */
export function readOrganization(organizationId: string): Promise<ApiResult<MembershipAnswer>> {
  return callApi<MembershipAnswer>(organizationPath(organizationId));
}

/** `PATCH /api/orgs/<id>`: a new name, slug, or both. */
export function renameOrganization(
  organizationId: string,
  changes: { readonly name?: string; readonly slug?: string },
): Promise<ApiResult<{ organization: Organization }>> {
  return callApi(organizationPath(organizationId), { method: "PATCH", body: changes });
}

/** `DELETE /api/orgs/<id>`: only once it holds no records. */
export function deleteOrganization(organizationId: string): Promise<ApiResult<null>> {
  return callApi<null>(organizationPath(organizationId), { method: "DELETE" });
}

/** The path of a page of an organization's members. */
export function membersPath(organizationId: string, after?: string): string {
  const query = new URLSearchParams({ limit: String(MEMBER_PAGE_SIZE) });
  if (after !== undefined) query.set("after", after);
  return `${organizationPath(organizationId, "members")}?${query}`;
}

/** `PATCH /api/orgs/<id>/members/<userId>`: a member's new role. */
export function changeMemberRole(organizationId: string, userId: string, role: string): Promise<ApiResult<{ member: Member }>> {
  return callApi(organizationPath(organizationId, "members", userId), { method: "PATCH", body: { role } });
}

/** `DELETE /api/orgs/<id>/members/<userId>`: a manager removes a member; the caller's own id leaves. */
export function removeMember(organizationId: string, userId: string): Promise<ApiResult<null>> {
  return callApi<null>(organizationPath(organizationId, "members", userId), { method: "DELETE" });
}

/** `GET /api/orgs/<id>/invitations`: the pending ones, newest first (managers only). */
export function listInvitations(organizationId: string): Promise<ApiResult<{ items: Invitation[] }>> {
  return callApi(organizationPath(organizationId, "invitations"));
}

/** What an invitation is made of: the address its link goes to, the role it gives. */
export interface InvitationDraft {
  readonly email: string;
  readonly role: string;
  /** The manager's password, when the session signed in too long ago to invite without it. */
  readonly currentPassword?: string;
}

/** `POST /api/orgs/<id>/invitations`: the server e-mails the link. */
export function sendInvitation(organizationId: string, draft: InvitationDraft): Promise<ApiResult<Invitation>> {
  return callApi<Invitation>(organizationPath(organizationId, "invitations"), { method: "POST", body: draft });
}

/** `DELETE /api/orgs/<id>/invitations/<invitationId>`: its link stops working. */
export function revokeInvitation(organizationId: string, invitationId: string): Promise<ApiResult<null>> {
  return callApi<null>(organizationPath(organizationId, "invitations", invitationId), { method: "DELETE" });
}

/** `POST /api/orgs/invitations/accept`: the signed-in user joins with the invitation's role. */
export function acceptInvitation(token: string): Promise<ApiResult<MembershipAnswer>> {
  return callApi<MembershipAnswer>(ACCEPT_INVITATION_PATH, { method: "POST", body: { token } });
}

/** The page of an organization in the web app. */
export function organizationPagePath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}`;
}

/** The invitation page of a link's token: where signing in or registering comes back to. */
export function invitationPagePath(token: string): string {
  return `/invitations?${new URLSearchParams({ token })}`;
}

/**
 * What a refused acceptance says to the person holding the link: an unusable link, or one sent to
 * another address than the one signed in.
 */
export function invitationRefusal(error: ErrorBody, signedInAs: string): string {
  if (error.code === "INVALID_INVITATION") {
    return "This invitation link no longer works: it was already used, replaced by a newer invitation, revoked, or it expired. Ask the organization for a new one.";
  }
  if (error.code === "FORBIDDEN") {
    return `This invitation was sent to another e-mail address than ${signedInAs}, the one you are signed in with. Sign out, then sign in (or register) with the invited address.`;
  }
  return error.message;
}
