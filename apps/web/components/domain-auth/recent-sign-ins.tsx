"use client";

import { useId } from "react";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { formatValue } from "@/lib/domain-auth/format";
import { useSecurityEvents } from "@/lib/domain-auth/security-events";
import { describeDevice } from "@/lib/domain-auth/signed-in-sessions";
import { FormError } from "./form-error";

/** How many of each the profile shows. */
const SHOWN = 5;

/**
 * "Recent sign-ins" on `/profile` (docs/events.md): the user's latest sign-ins and the latest failed
 * attempts against the account (device, address, time), so a stranger's use stands out.
 */
export function RecentSignIns({ auth, userId }: { readonly auth: Pick<AuthView, "segment">; readonly userId: string }) {
  const headingId = useId();
  const succeeded = useSecurityEvents(auth, { userId, type: "login.succeeded", limit: SHOWN });
  const failed = useSecurityEvents(auth, { userId, type: "login.failed", limit: SHOWN });
  const items = [
    ...succeeded.items.map((event) => ({ event, failed: false })),
    ...failed.items.map((event) => ({ event, failed: true })),
  ].sort((a, b) => (a.event.at < b.event.at ? 1 : a.event.at > b.event.at ? -1 : 0));

  return (
    <section className="da-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Recent sign-ins</h2>
      <FormError error={succeeded.error ?? failed.error} />
      {items.length === 0 && !succeeded.loading && !failed.loading ? <p>No sign-ins yet.</p> : null}
      <ul className="da-sessions" aria-busy={succeeded.loading || failed.loading}>
        {items.map(({ event, failed: refused }) => (
          <li key={event.id} className="da-session">
            <div className="da-session-head">
              <strong>{describeDevice(event.userAgent)}</strong>
              {refused ? <span className="da-badge da-badge-warning">Failed attempt</span> : null}
            </div>
            <dl className="da-session-times">
              <div>
                <dt>{refused ? "Tried" : "Signed in"}</dt>
                <dd>{formatValue(event.at)}</dd>
              </div>
              <div>
                <dt>Address</dt>
                <dd>{event.address ?? "Unknown"}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
