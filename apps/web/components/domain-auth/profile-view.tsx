"use client";

import { useState } from "react";
import { useCurrentUser } from "@/lib/domain-auth/current-user";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { fieldLabel } from "@/lib/domain-auth/format";
import { mayEditOwnAccount, ownEditableFields } from "@/lib/domain-auth/own-account";
import type { TwoStepStatus } from "@/lib/domain-auth/second-factor";
import { ApiKeysSection } from "./api-keys-section";
import { ConnectedAccounts, type ConnectedAccountsProps } from "./connected-accounts";
import { CredentialsSection } from "./credentials-section";
import { PasskeysSection } from "./passkeys-section";
import { ProfileDetails } from "./profile-details";
import { RecentSignIns } from "./recent-sign-ins";
import { ResendVerification } from "./resend-verification";
import { SessionsList } from "./sessions-list";
import { SignedOutNotice } from "./signed-out-notice";
import { TwoStepSection } from "./two-step-section";

/** Props of {@link ProfileView}. */
export interface ProfileViewProps {
  readonly auth: AuthView;
  /** The signed-in user's two-step verification as the server rendered it (`readTwoStepStatus`); `null` when unknown. */
  readonly twoStep?: TwoStepStatus | null;
  /** What a provider's callback said on its way back here (`?connected=`, `?error=`). */
  readonly returned?: ConnectedAccountsProps["returned"];
}

/**
 * The signed-in user's profile (as `me` answers it, or what the token carries when `me` is disabled);
 * where the auth entity lets them update their own record and `me` shows it, "Edit details" for the
 * fields they may write and "Email and password" to change either; their two-step verification where
 * the domain serves TOTP, their passkeys where it serves them, the signed-in devices where it has
 * `sessions`, and their API keys. Rendered on the server with the user, so the page's HTML shows it.
 * Signing out is the header's (one "Sign out" per page).
 */
export function ProfileView({ auth, twoStep = null, returned }: ProfileViewProps) {
  const current = useCurrentUser(auth);
  // Bumped when the server signed out the user's other devices: the list is loaded again.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  if (current.status === "signed-out") return <SignedOutNotice auth={auth} expired={current.expired} />;

  const { user } = current;
  const editable = current.source === "me" && mayEditOwnAccount(auth, user);
  const sessionsEnded = () => setSessionsVersion((version) => version + 1);
  const rows: [string, unknown][] = [
    ["Email", user.email],
    ["Role", user.role ?? "No role"],
    ...auth.profileFields
      .filter((field) => field.name in user)
      .map((field): [string, unknown] => [fieldLabel(field.name), user[field.name]]),
    ...(user.createdAt ? [["Member since", user.createdAt] as [string, unknown]] : []),
  ];
  return (
    <>
      <section aria-labelledby="profile-heading" className="da-card">
        <h2 id="profile-heading">{user.email}</h2>
        <ProfileDetails
          key={`details-${user.id}`}
          auth={auth}
          user={user}
          rows={rows}
          fields={editable ? ownEditableFields(auth, user) : []}
        />
        {current.source === "token" ? <p className="da-field-hint">Shown from your sign-in token.</p> : null}
        {user.emailVerified === false && auth.endpoints.verifyEmail ? (
          <div className="da-notice" role="note">
            {/* Registering sends a link only under auth.verifyEmail: without it, nothing was sent to follow. */}
            {auth.verifyEmail ? (
              <p>Your email address is not confirmed yet: follow the link we sent to {user.email}.</p>
            ) : (
              <p>Your email address is not confirmed.</p>
            )}
            <ResendVerification auth={auth} email={user.email} first={!auth.verifyEmail} />
          </div>
        ) : null}
      </section>
      {/* Each section starts afresh for another user; siblings, so each key of its own (React refuses two alike). */}
      {editable ? <CredentialsSection key={`credentials-${user.id}`} auth={auth} user={user} onOtherSessionsEnded={sessionsEnded} /> : null}
      {auth.endpoints.totp ? (
        <TwoStepSection key={`two-step-${user.id}`} auth={auth} userId={user.id} rendered={twoStep} onOtherSessionsEnded={sessionsEnded} />
      ) : null}
      {auth.endpoints.passkeys ? <PasskeysSection key={`passkeys-${user.id}`} auth={auth} onOtherSessionsEnded={sessionsEnded} /> : null}
      {auth.endpoints.providers ? <ConnectedAccounts key={`identities-${user.id}`} auth={auth} returned={returned} /> : null}
      {auth.endpoints.sessions ? <SessionsList key={`sessions-${user.id}`} auth={auth} version={sessionsVersion} /> : null}
      <ApiKeysSection key={`api-keys-${user.id}`} auth={auth} />
      <RecentSignIns key={`sign-ins-${user.id}`} auth={auth} userId={user.id} />
    </>
  );
}
