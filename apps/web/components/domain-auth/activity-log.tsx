"use client";

import { SECURITY_EVENT_TYPES, type SecurityEventType } from "@domain-auth/core/policy";
import { useId, useState } from "react";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { formatValue } from "@/lib/domain-auth/format";
import { EVENT_LABELS, useSecurityEvents } from "@/lib/domain-auth/security-events";
import { describeDevice } from "@/lib/domain-auth/signed-in-sessions";
import { useUserChoices } from "@/lib/domain-auth/user-choices";
import { FormError } from "./form-error";

/**
 * "Activity" on `/admin` (docs/events.md): everyone's security events, newest first, filtered by user
 * and by type, a page at a time ("Older", "Newer").
 */
export function ActivityLog({ auth }: { readonly auth: Pick<AuthView, "segment"> }) {
  const headingId = useId();
  const userFilterId = useId();
  const typeFilterId = useId();
  const users = useUserChoices(auth);
  const [userId, setUserId] = useState("");
  const [type, setType] = useState<SecurityEventType | "">("");
  const events = useSecurityEvents(auth, { ...(userId ? { userId } : {}), ...(type ? { type } : {}) });

  return (
    <section className="da-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Activity</h2>
      <div className="da-inline-form">
        <label htmlFor={userFilterId}>User</label>
        <select id={userFilterId} value={userId} onChange={(event) => setUserId(event.target.value)}>
          <option value="">Everyone</option>
          {users.map((user) => (
            <option key={user.id} value={user.id}>
              {user.email}
            </option>
          ))}
        </select>
        <label htmlFor={typeFilterId}>Event</label>
        <select id={typeFilterId} value={type} onChange={(event) => setType(event.target.value as SecurityEventType | "")}>
          <option value="">Any event</option>
          {SECURITY_EVENT_TYPES.map((name) => (
            <option key={name} value={name}>
              {EVENT_LABELS[name]}
            </option>
          ))}
        </select>
      </div>
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
                <td>{formatValue(event.at)}</td>
                <td>{EVENT_LABELS[event.type] ?? event.type}</td>
                <td>{event.email ?? "—"}</td>
                <td>{event.address ?? "—"}</td>
                <td>{event.userAgent ? describeDevice(event.userAgent) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!events.loading && events.items.length === 0 ? <p>No events.</p> : null}
      {events.hasNewer || events.hasOlder ? (
        <nav className="da-pager" aria-label="Activity pages">
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
