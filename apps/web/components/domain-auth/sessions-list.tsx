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
  /** The signed-in user's token. */
  readonly token: string;
}

/** The user's signed-in sessions (device, sign-in, last refresh, this device), each one signed out alone or all others at once. */
export function SessionsList({ auth, token }: SessionsListProps) {
  const sessions = useSignedInSessions(auth, token);
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const others = sessions.items.filter((session) => !session.current);

  async function revoke(path: string, done: string) {
    const result = await callApi(path, { method: "DELETE", token });
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
      <div className="da-table-wrap">
        <table>
          <caption className="da-visually-hidden">Your signed-in sessions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last refresh</th>
              <th scope="col">
                <span className="da-visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody aria-busy={sessions.loading}>
            {sessions.items.map((session) => (
              <tr key={session.id}>
                <td>
                  {describeDevice(session.userAgent)}
                  <span className="da-session-agent">{session.userAgent ?? "No User-Agent sent"}</span>
                </td>
                <td>{formatValue(session.createdAt)}</td>
                <td>{formatValue(session.refreshedAt)}</td>
                <td>
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
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {others.length > 0 ? (
        <button type="button" className="da-button da-button-danger" onClick={revokeOthers}>
          Sign out all other devices
        </button>
      ) : null}
    </section>
  );
}
