"use client";

import { checkGrant, type ErrorBody, type OrganizationRules } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { issuesByField } from "@/lib/domain-auth/api";
import { formatValue } from "@/lib/domain-auth/format";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { type Invitation, type InvitationDraft, listInvitations, revokeInvitation, sendInvitation } from "@/lib/domain-auth/organizations";
import { needsReauthentication, type RetryWithPassword } from "@/lib/domain-auth/reauthentication";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { FormError } from "./form-error";
import type { OrganizationActor } from "./organization-members";
import { ReauthPrompt } from "./reauth-prompt";
import { TextField } from "./text-field";

/** Props of {@link OrganizationInvitations}. */
export interface OrganizationInvitationsProps {
  readonly organizationId: string;
  readonly rules: OrganizationRules;
  /** A manager of the organization (the page shows this section to managers only). */
  readonly actor: OrganizationActor;
}

/**
 * The organization's pending invitations with Revoke, and the form that invites someone by e-mail
 * with a role within the manager's rank. Inviting needs a recent sign-in: a session that signed in
 * long ago is asked for the password, then the same invitation is sent.
 */
export function OrganizationInvitations({ organizationId, rules, actor }: OrganizationInvitationsProps) {
  const hydrated = useHydrated();
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [error, setError] = useState<ErrorBody | null>(null);
  const [retry, setRetry] = useState<RetryWithPassword | null>(null);
  const [email, setEmail] = useState("");
  const roles = rules.roles.filter((role) => checkGrant(rules, actor, role).allowed);
  const [role, setRole] = useState(roles[roles.length - 1] ?? "");
  const loaded = useLoaded(JSON.stringify([organizationId, version]), () => listInvitations(organizationId));
  const answer = loaded.value;
  const invitations = answer?.ok ? answer.data.items : [];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    await send({ email: email.trim(), role });
  }

  /** Sends an invitation; from a session that signed in long ago, first asks for the password and sends it again. */
  async function send(draft: InvitationDraft): Promise<ErrorBody | null> {
    const result = await sendInvitation(organizationId, draft);
    if (needsReauthentication(result) && draft.currentPassword === undefined) {
      setRetry(() => (currentPassword: string) => send({ ...draft, currentPassword }));
      return null;
    }
    // A wrong password: the prompt shows it beside its input.
    if (!result.ok && needsReauthentication(result)) return result.error;
    setRetry(null);
    if (!result.ok) {
      setError(result.error);
      return null;
    }
    setStatus(
      `An invitation is on its way to ${result.data.email} as ${result.data.role}: its link works until ${formatValue(result.data.expiresAt)}.`,
    );
    setEmail("");
    setVersion((count) => count + 1);
    return null;
  }

  async function revoke(invitation: Invitation) {
    const result = await revokeInvitation(organizationId, invitation.id);
    setFailure(result.ok ? null : result.error.message);
    setStatus(result.ok ? `The invitation of ${invitation.email} is revoked: its link no longer works.` : "");
    setVersion((count) => count + 1);
  }

  const fields = issuesByField(error);
  return (
    <section className="da-card" aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invitations</h2>
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? (answer && !answer.ok ? answer.error : null)} />
      {invitations.length === 0 ? (
        <p className="da-field-hint">{loaded.loading ? "Loading…" : "No pending invitations."}</p>
      ) : (
        <div className="da-table-wrap">
          <table className="da-stack-table">
            <caption className="da-visually-hidden">Pending invitations</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => (
                <tr key={invitation.id}>
                  <td data-label="Email">{invitation.email}</td>
                  <td data-label="Role">{invitation.role}</td>
                  <td data-label="Expires">{formatValue(invitation.expiresAt)}</td>
                  <td className="da-actions">
                    <button
                      type="button"
                      className="da-button da-button-danger"
                      aria-label={`Revoke the invitation of ${invitation.email}`}
                      onClick={() => revoke(invitation)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3 className="da-subsection">Invite someone</h3>
      {retry ? <ReauthPrompt action="invite someone" onPassword={retry} onCancel={() => setRetry(null)} /> : null}
      <form className="da-form" onSubmit={submit} hidden={retry !== null}>
        <FormError error={error && !fields.email && !fields.role ? error.message : null} />
        <TextField
          label="Email to invite"
          name="email"
          type="email"
          autoComplete="off"
          required
          value={email}
          hint="We e-mail them a link; they join once they accept it, signed in with this address."
          error={fields.email ? "Enter the e-mail address to send the invitation to." : undefined}
          onChange={(event) => setEmail(event.target.value)}
        />
        <div className="da-field">
          <label htmlFor={`invite-role-${organizationId}`}>Role</label>
          <select id={`invite-role-${organizationId}`} name="role" value={role} onChange={(event) => setRole(event.target.value)}>
            {roles.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
          {fields.role ? <p className="da-field-error">Choose one of the roles listed.</p> : null}
        </div>
        <div className="da-actions">
          <button type="submit" className="da-button da-button-primary" disabled={!hydrated}>
            Send invitation
          </button>
        </div>
      </form>
    </section>
  );
}
