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

/** Props of {@link InvitationsTable}. */
interface InvitationsTableProps {
  readonly invitations: readonly Invitation[];
  readonly loading: boolean;
  readonly onRevoke: (invitation: Invitation) => void;
}

/** The pending invitations (e-mail, role, expiry), each with Revoke; a sentence when there are none. */
function InvitationsTable({ invitations, loading, onRevoke }: InvitationsTableProps) {
  if (invitations.length === 0) return <p className="da-field-hint">{loading ? "Loading…" : "No pending invitations."}</p>;
  return (
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
                  onClick={() => onRevoke(invitation)}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Props of {@link InviteForm}. */
interface InviteFormProps {
  readonly organizationId: string;
  /** The roles the manager may give: the choices of the Role select, the last one chosen at first. */
  readonly roles: readonly string[];
  /** After an invitation was sent. */
  readonly onSent: (invitation: Invitation) => void;
}

/**
 * "Invite someone": an e-mail address and a role, with the API's issues beside the inputs. From a
 * session that signed in long ago, the form gives way to the password prompt, then the same
 * invitation is sent.
 */
function InviteForm({ organizationId, roles, onSent }: InviteFormProps) {
  const hydrated = useHydrated();
  const [error, setError] = useState<ErrorBody | null>(null);
  const [retry, setRetry] = useState<RetryWithPassword | null>(null);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState(roles[roles.length - 1] ?? "");

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
    onSent(result.data);
    setEmail("");
    return null;
  }

  const fields = issuesByField(error);
  return (
    <>
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
    </>
  );
}

/**
 * The organization's pending invitations with Revoke, and the form that invites someone by e-mail
 * with a role within the manager's rank. Inviting needs a recent sign-in: a session that signed in
 * long ago is asked for the password, then the same invitation is sent.
 */
export function OrganizationInvitations({ organizationId, rules, actor }: OrganizationInvitationsProps) {
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const roles = rules.roles.filter((role) => checkGrant(rules, actor, role).allowed);
  const loaded = useLoaded(JSON.stringify([organizationId, version]), () => listInvitations(organizationId));
  const answer = loaded.value;

  /** Says where the invitation went and until when its link works, and lists it. */
  function sent(invitation: Invitation) {
    setStatus(
      `An invitation is on its way to ${invitation.email} as ${invitation.role}: its link works until ${formatValue(invitation.expiresAt)}.`,
    );
    setVersion((count) => count + 1);
  }

  /** Revokes `invitation`, then lists the invitations again. */
  async function revoke(invitation: Invitation) {
    const result = await revokeInvitation(organizationId, invitation.id);
    setFailure(result.ok ? null : result.error.message);
    setStatus(result.ok ? `The invitation of ${invitation.email} is revoked: its link no longer works.` : "");
    setVersion((count) => count + 1);
  }

  return (
    <section className="da-card" aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invitations</h2>
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? (answer && !answer.ok ? answer.error : null)} />
      <InvitationsTable invitations={answer?.ok ? answer.data.items : []} loading={loaded.loading} onRevoke={revoke} />
      <InviteForm organizationId={organizationId} roles={roles} onSent={sent} />
    </section>
  );
}
