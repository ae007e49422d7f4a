import { type Caller, checkFieldGuards, type ErrorBody, guardedFields, itemPath, mayPerform } from "@domain-auth/core/policy";
import type { ApiFailure, ApiResult } from "./api-request";
import type { AuthView, FieldView } from "./domain-view";
import type { UserProfile } from "./profile";
import type { CredentialsChanged, SessionClient } from "./session-client";
import { describeSignInError } from "./sign-in";

/** What the profile's own-account forms need of the `auth` block. */
export type OwnAccountAuth = Pick<AuthView, "entity" | "profileFields" | "setupRole">;

/** The signed-in user as the permission rules see a caller. */
function callerOf(user: UserProfile): NonNullable<Caller> {
  return { id: user.id, role: user.role };
}

/**
 * Whether the user may change their own record at all: the auth entity's `update` permission
 * (`[<setup role>, "@Owner"]` unless the domain says otherwise), on their own record.
 */
export function mayEditOwnAccount(auth: OwnAccountAuth, user: UserProfile): boolean {
  return mayPerform(auth.entity, "update", callerOf(user), { record: user });
}

/**
 * The declared fields the user may write on their own record: the auth entity's fields besides
 * `email`, `password` and `role`, less those the field guards keep for the setup role.
 */
export function ownEditableFields(auth: OwnAccountAuth, user: UserProfile): FieldView[] {
  const caller = callerOf(user);
  const guarded = guardedFields(auth.entity);
  return auth.profileFields.filter(
    (field) => !guarded.includes(field.name) || checkFieldGuards(auth, auth.entity, caller, { [field.name]: null }).allowed,
  );
}

/** Where the user's own record is changed: `PATCH /api/<auth>/<id>`. */
export function ownRecordPath(auth: OwnAccountAuth, user: Pick<UserProfile, "id">): string {
  return itemPath(auth.entity, user.id);
}

/** What the API says of a wrong `currentPassword`: the issue placed beside its input. */
const WRONG_CURRENT_PASSWORD = { path: ["currentPassword"], message: "is wrong" } as const;

/**
 * The refusal of an own password or email change, ready for the form: its 403 (the one check a
 * user's change of their own credentials can fail with `FORBIDDEN`: the current password, missing or
 * wrong) placed on `currentPassword`; a locked sign-in (429) says how long to wait.
 */
export function credentialsRefusal(failure: Pick<ApiFailure, "error" | "retryAfter" | "status">): ErrorBody {
  if (failure.status === 403 && failure.error.code === "FORBIDDEN") {
    return { code: failure.error.code, message: "The current password is wrong.", issues: [WRONG_CURRENT_PASSWORD] };
  }
  return describeSignInError(failure);
}

/** A new password, or a new email address, with the current password that allows it. */
export type CredentialsChange = ({ readonly password: string } | { readonly email: string }) & { readonly currentPassword: string };

/**
 * `PATCH /api/<auth>/<own id>` with `{ password | email, currentPassword }` (docs/api.md#the-auth-entity):
 * the answer's fresh session cookies keep this tab signed in (every other session of the user is
 * revoked), and every tab shows the changed user. Resolves to the changed record, or the refusal as
 * {@link credentialsRefusal} puts it.
 */
export async function changeOwnCredentials(
  client: Pick<SessionClient, "changeCredentials">,
  auth: OwnAccountAuth,
  user: Pick<UserProfile, "id">,
  change: CredentialsChange,
): Promise<{ ok: true; user: UserProfile } | { ok: false; error: ErrorBody }> {
  const result: ApiResult<CredentialsChanged> = await client.changeCredentials(ownRecordPath(auth, user), change);
  return result.ok ? { ok: true, user: result.data.item } : { ok: false, error: credentialsRefusal(result) };
}

/**
 * `PATCH /api/<auth>/<own id>` with the user's own fields (no credential, so no current password):
 * every tab then shows the changed record. Resolves to it, or the API's error.
 */
export async function saveOwnFields(
  client: Pick<SessionClient, "call" | "userChanged">,
  auth: OwnAccountAuth,
  user: Pick<UserProfile, "id">,
  values: Readonly<Record<string, unknown>>,
): Promise<{ ok: true; user: UserProfile } | { ok: false; error: ErrorBody }> {
  const result = await client.call<{ item: UserProfile }>(ownRecordPath(auth, user), { method: "PATCH", body: values });
  if (!result.ok) return { ok: false, error: result.error };
  client.userChanged(result.data.item);
  return { ok: true, user: result.data.item };
}
