"use client";

import { type ErrorBody, signInPath } from "@domain-auth/core/policy";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCurrentUser } from "@/lib/domain-auth/current-user";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import {
  acceptInvitation,
  announceOrganizationsChanged,
  invitationPagePath,
  invitationRefusal,
  organizationPagePath,
} from "@/lib/domain-auth/organizations";
import { signOut } from "@/lib/domain-auth/sign-out";
import { FormError } from "./form-error";

/** Props of {@link AcceptInvitation}. */
export interface AcceptInvitationProps {
  readonly auth: AuthView;
  /** The token of the invitation's link; `null` when the page was opened without one. */
  readonly token: string | null;
}

/** The page the register form comes back to after creating the account. */
function registerPath(next: string): string {
  return `/register?${new URLSearchParams({ next })}`;
}

/**
 * Accepts an invitation to an organization with its link's token. Signed out, it says so and
 * offers to sign in or register, both coming back here; signed in, Accept joins and opens the
 * organization's page. A link that no longer works, and one sent to another address than the one
 * signed in, are said in sentences.
 */
export function AcceptInvitation({ auth, token }: AcceptInvitationProps) {
  const current = useCurrentUser(auth);
  const hydrated = useHydrated();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<ErrorBody | null>(null);
  const [joined, setJoined] = useState<string | null>(null);

  if (token === null) {
    return (
      <div className="da-notice" role="status">
        <p>This page opens from the link in an invitation e-mail, which carries the invitation. Open that link again.</p>
      </div>
    );
  }
  const here = invitationPagePath(token);

  if (current.status === "signed-out") {
    return (
      <div className="da-notice" role="status">
        <p>
          {current.expired ? "Your session is no longer valid. " : ""}
          You have been invited to join an organization. To accept, sign in with the e-mail address the invitation was sent to
          {auth.endpoints.register ? ", or create an account with it" : ""}; you come back here afterwards.
        </p>
        <div className="da-actions">
          {auth.endpoints.login ? (
            <Link className="da-button da-button-primary" href={signInPath(here)}>
              Sign in
            </Link>
          ) : null}
          {auth.endpoints.register ? (
            <Link className="da-button" href={registerPath(here)}>
              Create an account
            </Link>
          ) : null}
        </div>
      </div>
    );
  }

  const { user } = current;

  async function accept() {
    if (token === null) return;
    setBusy(true);
    const result = await acceptInvitation(token);
    if (!result.ok) {
      setBusy(false);
      return setRefusal(result.error);
    }
    setJoined(`You joined ${result.data.organization.name} as ${result.data.role ?? "a member"}.`);
    announceOrganizationsChanged();
    router.push(organizationPagePath(result.data.organization.id));
  }

  async function switchAccount() {
    await signOut(auth);
    // A page load, as the header's "Sign out" does: the router keeps no page of the signed-in user.
    window.location.assign(signInPath(here));
  }

  return (
    <div className="da-card">
      <p className="da-status" role="status">
        {joined ?? ""}
      </p>
      <FormError error={refusal ? invitationRefusal(refusal, user.email) : null} />
      <p>
        You are signed in as <strong>{user.email}</strong>. Accept the invitation to join the organization it is for.
      </p>
      <div className="da-actions">
        <button
          type="button"
          className="da-button da-button-primary"
          disabled={busy || !hydrated || refusal?.code === "INVALID_INVITATION"}
          onClick={accept}
        >
          Accept invitation
        </button>
        {refusal?.code === "FORBIDDEN" && auth.endpoints.login ? (
          <button type="button" className="da-button" onClick={switchAccount}>
            Sign out and use another account
          </button>
        ) : null}
        {refusal?.code === "INVALID_INVITATION" ? (
          <Link className="da-button" href="/orgs">
            Your organizations
          </Link>
        ) : null}
      </div>
    </div>
  );
}
