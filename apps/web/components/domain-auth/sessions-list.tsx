"use client";

import { apiPaths, sessionPath } from "@domain-auth/core/policy";
import { useState } from "react";
import { callApi } from "@/lib/domain-auth/api";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { formatValue } from "@/lib/domain-auth/format";
import { describeDevice, type SignedInSession, useSignedInSessions } from "@/lib/domain-auth/signed-in-sessions";
import { FormError } from "./form-error";

/** Props of {@link SessionsList}. */
export interface SessionsListProps {
  readonly auth: Pick<AuthView, "segment">;
  /** Changed when something else ended sessions (two-step verification turned on or off): the list is loaded again. @default 0 */
  readonly version?: number;
}

/** The user's signed-in sessions (device, sign-in, last refresh, this device), each one signed out alone or all others at once. */
export function SessionsList({ auth, version = 0 }: SessionsListProps) {
  const sessions = useSignedInSessions(auth, { version });
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const others = sessions.items.filter((session) => !session.current);

  async function revoke(path: string, done: string) {
    const result = await callApi(path, { method: "DELETE" });
    setFailure(result.ok ? null : result.error.message);
    setStatus(result.ok ? done : "");
    sessions.reload();
  }

  const revokeOne = (session: SignedInSession) =>
    revoke(sessionPath(auth, session.id), `${describeDevice(session.userAgent)} has been signed out.`);
  const revokeOthers = () => revoke(apiPaths(auth).sessions, "Every other device has been signed out.");

  return (
    <section aria-labelledby="sessions-heading" className="da-card">
      <h2 id="sessions-heading">Signed-in devices</h2>
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? sessions.error?.message ?? null} />
      <ul className="da-sessions" aria-busy={sessions.loading}>
        {sessions.items.map((session) => (
          <li key={session.id} className="da-session">
            <div className="da-session-head">
              <strong>{describeDevice(session.userAgent)}</strong>
              {session.current ? (
                <span className="da-badge">This device</span>
              ) : (
                <button
                  type="button"
                  className="da-button"
                  aria-label={`Sign out ${describeDevice(session.userAgent)}, signed in ${formatValue(session.createdAt)}`}
                  onClick={() => revokeOne(session)}
                >
                  Sign out
                </button>
              )}
            </div>
            <span className="da-session-agent">{session.userAgent ?? "No User-Agent sent"}</span>
            <dl className="da-session-times">
              <div>
                <dt>Signed in</dt>
                <dd>{formatValue(session.createdAt)}</dd>
              </div>
              <div>
                <dt>Last refresh</dt>
                <dd>{formatValue(session.refreshedAt)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <button type="button" className="da-button da-button-danger" onClick={revokeOthers}>
          Sign out all other devices
        </button>
      ) : null}
    </section>
  );
}
