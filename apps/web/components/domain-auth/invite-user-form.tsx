"use client";

import { ACCOUNT_TOKEN_LIFETIMES, collectionPath } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { callApi, formErrorSummary, issuesByField } from "@/lib/domain-auth/api";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useFormErrors } from "@/lib/domain-auth/form-errors";
import { needsReauthentication, type RetryWithPassword } from "@/lib/domain-auth/reauthentication";
import { FormError } from "./form-error";
import { ReauthPrompt } from "./reauth-prompt";
import { TextField } from "./text-field";

/** Props of {@link InviteUserForm}. */
export interface InviteUserFormProps {
  readonly auth: AuthView;
  /** Called after a user was invited (to reload the list). */
  readonly onInvited: () => void;
}

/** Creates a user without a password: the server e-mails them a link to choose one. */
export function InviteUserForm({ auth, onInvited }: InviteUserFormProps) {
  const { error, fail, onChange } = useFormErrors();
  const [status, setStatus] = useState("");
  const [retry, setRetry] = useState<RetryWithPassword | null>(null);

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const email = String(data.get("email") ?? "");
    const role = String(data.get("role") ?? "");
    const body = role ? { email, role } : { email };
    await send(body, form);
  }

  /** Sends an invitation; one with the setup role from a session that signed in long ago first asks for the password. */
  async function send(body: { email: string; role?: string; currentPassword?: string }, form: HTMLFormElement) {
    const result = await callApi(collectionPath(auth), { method: "POST", body });
    if (needsReauthentication(result) && body.currentPassword === undefined) {
      setRetry(() => (currentPassword: string) => send({ ...body, currentPassword }, form));
      return null;
    }
    if (!result.ok && needsReauthentication(result)) return result.error;
    setRetry(null);
    fail(result.ok ? null : result.error, form);
    if (!result.ok) return null;
    const days = ACCOUNT_TOKEN_LIFETIMES.invite / 86400;
    setStatus(`${body.email} is invited: a link to choose a password is on its way (it works for ${days} days).`);
    form.reset();
    onInvited();
    return null;
  }

  return (
    <section className="da-card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite user</h2>
      <p className="da-status" role="status">
        {status}
      </p>
      {retry ? <ReauthPrompt action="invite an administrator" onPassword={retry} onCancel={() => setRetry(null)} /> : null}
      <form className="da-form" onSubmit={invite} onChange={onChange} hidden={retry !== null}>
        <FormError error={formErrorSummary(error, ["email"])} />
        <TextField label="Email to invite" name="email" type="email" autoComplete="off" required error={issuesByField(error).email} />
        {auth.roles.length > 0 ? (
          <div className="da-field">
            <label htmlFor="invite-role">Role</label>
            <select id="invite-role" name="role" defaultValue={auth.defaultRole ?? ""}>
              <option value="">Default role</option>
              {auth.roles.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <button type="submit" className="da-button da-button-primary">
          Send invitation
        </button>
      </form>
    </section>
  );
}
