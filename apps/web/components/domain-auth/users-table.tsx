"use client";

import { type ErrorBody, itemPath, userSessionsPath } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { callApi } from "@/lib/domain-auth/api";
import type { UserProfile } from "@/lib/domain-auth/current-user";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { fieldLabel, formatValue } from "@/lib/domain-auth/format";
import { usePagedList } from "@/lib/domain-auth/paged-list";
import { needsReauthentication, type RetryWithPassword } from "@/lib/domain-auth/reauthentication";
import { FormError } from "./form-error";
import { Pager } from "./pager";
import { ReauthPrompt } from "./reauth-prompt";

/** A user's role as a choice of the domain's roles, and the button that gives the chosen one. */
function RoleForm({
  roles,
  user,
  onSubmit,
}: {
  readonly roles: readonly string[];
  readonly user: UserProfile;
  readonly onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form className="da-inline-form" onSubmit={onSubmit}>
      <select name="role" aria-label={`Role of ${user.email}`} defaultValue={user.role ?? ""}>
        {roles.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
        <option value="">No role</option>
      </select>
      <button type="submit" className="da-button" aria-label={`Change role of ${user.email}`}>
        Change role
      </button>
    </form>
  );
}

/** How a role change went: `given`, or the error a password prompt shows (a wrong password). */
interface RoleOutcome {
  readonly given: boolean;
  readonly error: ErrorBody | null;
}

/** Every user with their role, a form per user to change it and, where the domain has `sessions`, "sign out everywhere". */
export function UsersTable({ auth }: { readonly auth: AuthView }) {
  const list = usePagedList<UserProfile>(auth.segment);
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [retry, setRetry] = useState<RetryWithPassword | null>(null);

  async function changeRole(event: FormEvent<HTMLFormElement>, user: UserProfile) {
    event.preventDefault();
    const form = event.currentTarget;
    const role = String(new FormData(form).get("role") ?? "") || null;
    // Given, the choice stays until the list read again shows it; not given, the form shows the role the user still has.
    if (!(await giveRole(user, role, {})).given) form.reset();
  }

  /** Sends a role change; giving the setup role from a session that signed in long ago first asks for the password. */
  async function giveRole(user: UserProfile, role: string | null, proof: { currentPassword?: string }): Promise<RoleOutcome> {
    const result = await callApi(itemPath(auth, user.id), { method: "PATCH", body: { role, ...proof } });
    if (needsReauthentication(result) && proof.currentPassword === undefined) {
      setRetry(() => async (currentPassword: string) => (await giveRole(user, role, { currentPassword })).error);
      return { given: false, error: null };
    }
    if (!result.ok && needsReauthentication(result)) return { given: false, error: result.error };
    setRetry(null);
    setFailure(result.ok ? null : result.error.message);
    setStatus(result.ok ? `${user.email} now has the role ${role ?? "none"}.` : "");
    list.reload();
    return { given: result.ok, error: null };
  }

  async function signOutEverywhere(user: UserProfile) {
    const result = await callApi(userSessionsPath(auth, user.id), { method: "DELETE" });
    setFailure(result.ok ? null : result.error.message);
    setStatus(result.ok ? `${user.email} has been signed out everywhere.` : "");
  }

  return (
    <section className="da-card" aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? list.error} />
      {retry ? <ReauthPrompt action="give this role" onPassword={retry} onCancel={() => setRetry(null)} /> : null}
      <div className="da-table-wrap">
        <table>
          <caption className="da-visually-hidden">Users and their roles</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              {auth.profileFields.map((field) => (
                <th scope="col" key={field.name}>
                  {fieldLabel(field.name)}
                </th>
              ))}
              <th scope="col">Role</th>
              {auth.endpoints.sessions ? <th scope="col">Sessions</th> : null}
            </tr>
          </thead>
          <tbody>
            {list.items.map((user) => (
              <tr key={`${user.id}:${user.role}`}>
                <td>{user.email}</td>
                {auth.profileFields.map((field) => (
                  <td key={field.name}>{formatValue(user[field.name])}</td>
                ))}
                <td>
                  <RoleForm roles={auth.roles} user={user} onSubmit={(event) => changeRole(event, user)} />
                </td>
                {auth.endpoints.sessions ? (
                  <td>
                    <button
                      type="button"
                      className="da-button"
                      aria-label={`Sign out ${user.email} everywhere`}
                      onClick={() => signOutEverywhere(user)}
                    >
                      Sign out everywhere
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager label="Users" list={list} />
    </section>
  );
}
