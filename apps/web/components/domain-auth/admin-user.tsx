"use client";

import type { SessionView } from "@domain-auth/core/policy";
import Link from "next/link";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { ADMIN_PATH } from "@/lib/domain-auth/admin-sections";
import { userActivityHref, useUser, useUserPasskeys, useUserSessions, useUserTotp } from "@/lib/domain-auth/admin-user";
import { type ApiKey, revokeApiKey, useApiKeys } from "@/lib/domain-auth/api-keys";
import type { AuthView, FieldView } from "@/lib/domain-auth/domain-view";
import { fieldLabel } from "@/lib/domain-auth/format";
import type { UserProfile } from "@/lib/domain-auth/profile";
import { EVENT_LABELS, useSecurityEvents } from "@/lib/domain-auth/security-events";
import { describeDevice } from "@/lib/domain-auth/signed-in-sessions";
import { useUserActions } from "@/lib/domain-auth/user-actions";
import { useAdmin } from "./admin-shell";
import { ApiKeyList } from "./api-key-list";
import { FormError } from "./form-error";
import { ReauthPrompt } from "./reauth-prompt";
import { RecordValue } from "./record-value";
import { RoleForm, SignOutEverywhereButton } from "./users-table";

/** How many of the user's latest security events their page lists. */
const RECENT_EVENTS = 5;

const plural = (count: number, one: string, many: string) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

/** A titled part of the user's page: a region named by its heading. */
function UserSection({ title, children, action }: { readonly title: string; readonly children: ReactNode; readonly action?: ReactNode }) {
  const headingId = useId();
  return (
    <section className="da-card" aria-labelledby={headingId}>
      <div className="da-section-head">
        <h2 id={headingId}>{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** A few labelled values on one line each: a session's times, a passkey's. */
function Facts({ items }: { readonly items: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="da-session-times">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The fields of a user, in order: e-mail, the declared ones, role, times and id, then anything else the API answered. */
function profileFields(
  auth: AuthView,
  user: UserProfile,
): readonly { readonly name: string; readonly field: Pick<FieldView, "type"> | undefined }[] {
  const known = [
    { name: "email", field: { type: "string" } as const },
    ...auth.profileFields.map((field) => ({ name: field.name, field })),
    { name: "role", field: { type: "enum" } as const },
    { name: "createdAt", field: undefined },
    { name: "updatedAt", field: undefined },
  ];
  const rest = Object.keys(user).filter((name) => name !== "id" && !known.some((each) => each.name === name));
  return [...known, ...rest.map((name) => ({ name, field: undefined })), { name: "id", field: { type: "string" } as const }];
}

/** The user's profile, every field formatted as the admin shows values, and the form that changes the role. */
function ProfileSection({
  auth,
  user,
  onRole,
}: {
  readonly auth: AuthView;
  readonly user: UserProfile;
  readonly onRole: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <UserSection title="Profile">
      <dl className="da-details da-record-details">
        {profileFields(auth, user).map(({ name, field }) => (
          <div key={name}>
            <dt>{name === "id" ? "Id" : fieldLabel(name)}</dt>
            <dd>
              <RecordValue field={field} value={user[name]} />
            </dd>
          </div>
        ))}
      </dl>
      <h3>Change role</h3>
      <p className="da-field-hint">A new role signs the user out everywhere: their next sign-in carries it.</p>
      <RoleForm key={user.role ?? ""} roles={auth.roles} user={user} onSubmit={onRole} />
    </UserSection>
  );
}

/** One signed-in session: the device, its `User-Agent`, when it signed in, was last seen and ends. */
function SessionItem({ session }: { readonly session: SessionView }) {
  return (
    <li className="da-session">
      <strong>{describeDevice(session.userAgent)}</strong>
      <span className="da-session-agent" title={session.userAgent ?? undefined}>
        {session.userAgent ?? "No User-Agent sent"}
      </span>
      <Facts
        items={[
          ["Signed in", <RecordValue key="in" field={undefined} value={session.createdAt} />],
          ["Last seen", <RecordValue key="seen" field={undefined} value={session.refreshedAt} />],
          ["Ends", <RecordValue key="ends" field={undefined} value={session.expiresAt} />],
        ]}
      />
    </li>
  );
}

/** The user's signed-in sessions (`GET sessions?userId=`), and "Sign out everywhere". */
function SessionsSection({
  auth,
  user,
  version,
  onSignOut,
}: {
  readonly auth: AuthView;
  readonly user: UserProfile;
  readonly version: number;
  readonly onSignOut: () => void;
}) {
  const sessions = useUserSessions(auth, user.id, version);
  const items = sessions.value ?? [];
  return (
    <UserSection title="Sessions" action={items.length > 0 ? <SignOutEverywhereButton email={user.email} onClick={onSignOut} /> : null}>
      <FormError error={sessions.error} />
      {sessions.value === null && !sessions.error ? <p className="da-field-hint">Loading…</p> : null}
      {sessions.value?.length === 0 ? <p>Not signed in anywhere.</p> : null}
      {items.length > 0 ? (
        <ul className="da-sessions" aria-label={`Sessions of ${user.email}`}>
          {items.map((session) => (
            <SessionItem key={session.id} session={session} />
          ))}
        </ul>
      ) : null}
    </UserSection>
  );
}

/** Two-step verification (on or off, recovery codes left) and passkeys by name: each where the domain has it. */
function SecondFactorsSection({ auth, user, version }: { readonly auth: AuthView; readonly user: UserProfile; readonly version: number }) {
  const totp = useUserTotp(auth, user.id, version);
  const passkeys = useUserPasskeys(auth, user.id, version);
  const status = totp.value;
  return (
    <UserSection title="Second factors">
      <FormError error={totp.error ?? passkeys.error} />
      {auth.endpoints.totp ? (
        <p className="da-user-factor">
          <strong>Two-step verification</strong>
          {status === null ? (
            <span>…</span>
          ) : (
            <>
              <span className={status.enabled ? "da-badge" : "da-badge da-badge-off"}>{status.enabled ? "On" : "Off"}</span>
              {status.enabled ? <span>{plural(status.recoveryCodesLeft, "recovery code", "recovery codes")} left</span> : null}
            </>
          )}
        </p>
      ) : null}
      {auth.endpoints.passkeys ? (
        <>
          <h3>Passkeys</h3>
          {passkeys.value?.length === 0 ? <p>No passkeys.</p> : null}
          <ul className="da-sessions" aria-label={`Passkeys of ${user.email}`}>
            {(passkeys.value ?? []).map((passkey) => (
              <li key={passkey.id} className="da-session">
                <strong>{passkey.name}</strong>
                <Facts
                  items={[
                    ["Added", <RecordValue key="added" field={undefined} value={passkey.createdAt} />],
                    ["Last used", passkey.lastUsedAt ? <RecordValue key="used" field={undefined} value={passkey.lastUsedAt} /> : "Never"],
                  ]}
                />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </UserSection>
  );
}

/** The user's API keys, each revoked here. */
function KeysSection({ auth, user }: { readonly auth: AuthView; readonly user: UserProfile }) {
  const keys = useApiKeys(auth, { userId: user.id });
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);

  async function revoke(key: ApiKey) {
    const result = await revokeApiKey(auth, key.id);
    setFailure(result.ok ? null : result.error.message);
    setStatus(result.ok ? `The API key “${key.name}” of ${user.email} was revoked.` : "");
    keys.reload();
  }

  return (
    <UserSection title="API keys">
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? keys.error?.message ?? null} />
      <ApiKeyList items={keys.items} label={`API keys of ${user.email}`} onRevoke={revoke} />
    </UserSection>
  );
}

/** The user's latest security events (`GET events?userId=`), and the way to all of them on the Activity page. */
function EventsSection({ auth, user }: { readonly auth: AuthView; readonly user: UserProfile }) {
  const events = useSecurityEvents(auth, { userId: user.id, limit: RECENT_EVENTS });
  return (
    <UserSection title="Recent security events">
      <FormError error={events.error} />
      {!events.loading && events.items.length === 0 ? <p>No events.</p> : null}
      <ul className="da-sessions" aria-label={`Latest security events of ${user.email}`} aria-busy={events.loading}>
        {events.items.map((event) => (
          <li key={event.id} className="da-session">
            <strong>{EVENT_LABELS[event.type] ?? event.type}</strong>
            <Facts
              items={[
                ["When", <RecordValue key="at" field={undefined} value={event.at} />],
                ["Address", event.address ?? "Unknown"],
                ["Device", event.userAgent ? describeDevice(event.userAgent) : "Unknown"],
              ]}
            />
          </li>
        ))}
      </ul>
      <p>
        <Link href={userActivityHref(user.id)}>All activity of {user.email}</Link>
      </p>
    </UserSection>
  );
}

/** The link back to the list of users. */
function BackToUsers() {
  return (
    <p>
      <Link href={`${ADMIN_PATH}/users`}>← All users</Link>
    </p>
  );
}

/**
 * A user's page in the admin (setup role): the profile and its role, the user's sessions, second
 * factors, API keys and latest security events, each where the domain has them. An unknown id says so.
 */
export function AdminUser({ id }: { readonly id: string }) {
  const admin = useAdmin();
  const auth = admin.view.auth;
  if (!auth) throw new Error("a user's page exists only under auth.type: jwt");
  // Bumped by a role change or a sign-out: the user and what changed with them are read again.
  const [version, setVersion] = useState(0);
  const loaded = useUser(auth, id, version);
  const actions = useUserActions(auth, () => setVersion((value) => value + 1));
  const user = loaded.value;
  if (user === null && loaded.error === null) return <p role="status">Loading…</p>;
  if (user === null) {
    return (
      <>
        <BackToUsers />
        <h1>User</h1>
        <FormError error={loaded.error?.code === "NOT_FOUND" ? "There is no user with this id." : loaded.error} />
      </>
    );
  }
  return (
    <article className="da-record" aria-labelledby="user-heading">
      <BackToUsers />
      <h1 id="user-heading" className="da-record-title">
        {user.email}
      </h1>
      <p className="da-status" role="status">
        {actions.status}
      </p>
      <FormError error={actions.failure} />
      {actions.retry ? <ReauthPrompt action="give this role" onPassword={actions.retry} onCancel={actions.cancelRetry} /> : null}
      <ProfileSection auth={auth} user={user} onRole={(event) => actions.changeRole(event, user)} />
      {auth.endpoints.sessions ? (
        <SessionsSection auth={auth} user={user} version={version} onSignOut={() => actions.signOutEverywhere(user)} />
      ) : null}
      {auth.endpoints.totp || auth.endpoints.passkeys ? <SecondFactorsSection auth={auth} user={user} version={version} /> : null}
      <KeysSection auth={auth} user={user} />
      <EventsSection auth={auth} user={user} />
    </article>
  );
}
