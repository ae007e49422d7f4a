"use client";

import { SECURITY_EVENT_TYPES, type SecurityEventType } from "@domain-auth/core/policy";
import Link from "next/link";
import { useId, useState } from "react";
import { userHref } from "@/lib/domain-auth/admin-sections";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { EVENT_LABELS, useSecurityEvents } from "@/lib/domain-auth/security-events";
import { describeDevice } from "@/lib/domain-auth/signed-in-sessions";
import { useUserChoices } from "@/lib/domain-auth/user-choices";
import { FormError } from "./form-error";
import { RecordValue } from "./record-value";

/** The filters above the events: a user (the first 100, by e-mail) and a type. */
function ActivityFilters({
  auth,
  userId,
  type,
  onUser,
  onType,
}: {
  readonly auth: Pick<AuthView, "segment">;
  readonly userId: string;
  readonly type: SecurityEventType | "";
  readonly onUser: (userId: string) => void;
  readonly onType: (type: SecurityEventType | "") => void;
}) {
  const userFilterId = useId();
  const typeFilterId = useId();
  const users = useUserChoices(auth);
  // A user asked for by the address who is not among the choices (past the first 100) is still shown as chosen.
  const unlisted = userId !== "" && users.length > 0 && !users.some((user) => user.id === userId);
  return (
    <div className="da-inline-form da-activity-filters">
      <label htmlFor={userFilterId}>User</label>
      <select id={userFilterId} value={userId} onChange={(event) => onUser(event.target.value)}>
        <option value="">Everyone</option>
        {unlisted ? <option value={userId}>{userId}</option> : null}
        {users.map((user) => (
          <option key={user.id} value={user.id}>
            {user.email}
          </option>
        ))}
      </select>
      <label htmlFor={typeFilterId}>Event</label>
      <select id={typeFilterId} value={type} onChange={(event) => onType(event.target.value as SecurityEventType | "")}>
        <option value="">Any event</option>
        {SECURITY_EVENT_TYPES.map((name) => (
          <option key={name} value={name}>
            {EVENT_LABELS[name]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Props of {@link ActivityLog}. */
export interface ActivityLogProps {
  readonly auth: Pick<AuthView, "segment">;
  /** The section's heading. @default "Activity" */
  readonly title?: string;
  /** The user whose events are shown first (`""`: everyone's). @default "" */
  readonly initialUserId?: string;
}

/**
 * Everyone's security events on the admin's Activity page (docs/events.md), newest first, filtered
 * by user and by type, a page at a time ("Older", "Newer").
 */
export function ActivityLog({ auth, title = "Activity", initialUserId = "" }: ActivityLogProps) {
  const headingId = useId();
  const [userId, setUserId] = useState(initialUserId);
  const [type, setType] = useState<SecurityEventType | "">("");
  const events = useSecurityEvents(auth, { ...(userId ? { userId } : {}), ...(type ? { type } : {}) });

  return (
    <section className="da-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ActivityFilters auth={auth} userId={userId} type={type} onUser={setUserId} onType={setType} />
      <FormError error={events.error} />
      <div className="da-table-wrap">
        <table aria-busy={events.loading}>
          <caption className="da-visually-hidden">Security events, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">User</th>
              <th scope="col">Address</th>
              <th scope="col">Device</th>
            </tr>
          </thead>
          <tbody>
            {events.items.map((event) => (
              <tr key={event.id}>
                <td className="da-nowrap">
                  <RecordValue field={undefined} value={event.at} />
                </td>
                <td>{EVENT_LABELS[event.type] ?? event.type}</td>
                <td>{event.email && event.userId ? <Link href={userHref(event.userId)}>{event.email}</Link> : (event.email ?? "—")}</td>
                <td>{event.address ?? "—"}</td>
                <td>{event.userAgent ? describeDevice(event.userAgent) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!events.loading && events.items.length === 0 ? <p>No events.</p> : null}
      {events.hasNewer || events.hasOlder ? (
        <nav className="da-pager" aria-label={`${title} pages`}>
          <button type="button" className="da-button" disabled={!events.hasNewer} onClick={events.newer}>
            Newer
          </button>
          <button type="button" className="da-button" disabled={!events.hasOlder} onClick={events.older}>
            Older
          </button>
        </nav>
      ) : null}
    </section>
  );
}
