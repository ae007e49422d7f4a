"use client";

import { useId, useState } from "react";
import { formatValue } from "@/lib/domain-auth/format";
import { listPasskeys, type Passkey, removePasskey } from "@/lib/domain-auth/passkeys";
import type { SecondFactorAuth } from "@/lib/domain-auth/second-factor";
import { sessionClient } from "@/lib/domain-auth/session";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { AddPasskeyForm } from "./add-passkey-form";
import { FormError } from "./form-error";

/** Props of {@link PasskeysSection}. */
export interface PasskeysSectionProps {
  readonly auth: SecondFactorAuth;
  /** Adding or removing a passkey signed out the user's other sessions. */
  readonly onOtherSessionsEnded: () => void;
}

/**
 * "Passkeys" on `/profile` (docs/mfa.md): the user's passkeys (name, added, last used), each
 * removable, and a form that adds one with the browser's own prompt. With a passkey, "Sign in with
 * a passkey" works without a password, and the password asks for a passkey as its second step.
 */
export function PasskeysSection({ auth, onOtherSessionsEnded }: PasskeysSectionProps) {
  const headingId = useId();
  const [version, setVersion] = useState(0);
  const [adding, setAdding] = useState(false);
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  // A reload keeps the old list on show until the new one arrives.
  const { value: answer } = useLoaded(JSON.stringify([auth.segment, version]), () => listPasskeys(sessionClient(), auth));
  const loaded = answer === undefined ? null : answer.ok ? { items: answer.data, error: null } : { items: [], error: answer.error.message };
  const items = loaded?.items ?? null;
  const reload = () => setVersion((value) => value + 1);

  async function remove(passkey: Passkey) {
    const result = await removePasskey(sessionClient(), auth, passkey.id);
    setFailure(result.ok ? null : result.error.message);
    if (result.ok) {
      setStatus(`The passkey “${passkey.name}” was removed; your other devices were signed out.`);
      onOtherSessionsEnded();
    }
    reload();
  }

  function added(passkey: Passkey) {
    setAdding(false);
    setStatus(`The passkey “${passkey.name}” was added; your other devices were signed out.`);
    onOtherSessionsEnded();
    reload();
  }

  return (
    <section aria-labelledby={headingId} className="da-card">
      <h2 id={headingId}>Passkeys</h2>
      <p className="da-field-hint">
        A passkey signs you in with your device’s screen lock (fingerprint, face or PIN) instead of a password, and stands in for a code as
        the second step after your password.
      </p>
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? loaded?.error ?? null} />
      {items === null ? (
        <p className="da-field-hint">Loading…</p>
      ) : items.length === 0 ? (
        <p>You have no passkeys yet.</p>
      ) : (
        <ul className="da-sessions">
          {items.map((passkey) => (
            <li key={passkey.id} className="da-session">
              <div className="da-session-head">
                <strong>{passkey.name}</strong>
                <button
                  type="button"
                  className="da-button"
                  aria-label={`Remove the passkey ${passkey.name}`}
                  onClick={() => remove(passkey)}
                >
                  Remove
                </button>
              </div>
              <dl className="da-session-times">
                <div>
                  <dt>Added</dt>
                  <dd>{formatValue(passkey.createdAt)}</dd>
                </div>
                <div>
                  <dt>Last used</dt>
                  <dd>{passkey.lastUsedAt ? formatValue(passkey.lastUsedAt) : "Never"}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
      {adding ? (
        <AddPasskeyForm auth={auth} onAdded={added} onCancel={() => setAdding(false)} />
      ) : (
        <div className="da-actions">
          <button type="button" className="da-button" onClick={() => setAdding(true)}>
            Add a passkey
          </button>
        </div>
      )}
    </section>
  );
}
