"use client";

import { type IdentityView, isProviderError, PROVIDER_ERRORS } from "@domain-auth/core/policy";
import { useId, useState } from "react";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { formatValue } from "@/lib/domain-auth/format";
import { listIdentities, startLinking, unlinkIdentity } from "@/lib/domain-auth/identities";
import { needsReauthentication, type RetryWithPassword } from "@/lib/domain-auth/reauthentication";
import { sessionClient } from "@/lib/domain-auth/session";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { FormError } from "./form-error";
import { ReauthPrompt } from "./reauth-prompt";

/** Props of {@link ConnectedAccounts}. */
export interface ConnectedAccountsProps {
  readonly auth: Pick<AuthView, "segment" | "providers">;
  /** What the provider's callback said on its way back to `/profile`: `?connected=<id>` or `?error=<CODE>`. */
  readonly returned?: { readonly connected?: string | undefined; readonly error?: string | undefined };
}

/** The sentence for the page's `?connected=` or `?error=` after a provider sent the browser back. */
function returnedStatus(
  auth: ConnectedAccountsProps["auth"],
  returned: ConnectedAccountsProps["returned"],
): { status: string; failure: string | null } {
  const provider = auth.providers.find((candidate) => candidate.id === returned?.connected);
  if (provider) return { status: `Your ${provider.name} account is connected: you can sign in with it.`, failure: null };
  return { status: "", failure: isProviderError(returned?.error) ? PROVIDER_ERRORS[returned.error] : null };
}

/**
 * "Connected accounts" on `/profile` (docs/providers.md): the user's accounts at providers, each
 * disconnectable unless it is their last way in, and "Connect <name>" for the others (a recent
 * sign-in, or the password, first; then a navigation to the provider, which comes back here).
 */
export function ConnectedAccounts({ auth, returned }: ConnectedAccountsProps) {
  const headingId = useId();
  const [version, setVersion] = useState(0);
  const [{ status, failure }, setOutcome] = useState(() => returnedStatus(auth, returned));
  const [retry, setRetry] = useState<{ provider: string; send: RetryWithPassword } | null>(null);
  const { value: answer } = useLoaded(JSON.stringify([auth.segment, version]), () => listIdentities(sessionClient(), auth));
  const items = answer?.ok ? answer.data : null;
  const nameOf = (id: string) => auth.providers.find((provider) => provider.id === id)?.name ?? id;

  async function connect(provider: string, currentPassword?: string) {
    const result = await startLinking(sessionClient(), auth, provider, currentPassword);
    if (result.ok) {
      window.location.assign(result.data.url);
      return null;
    }
    if (needsReauthentication(result)) {
      if (currentPassword !== undefined) return result.error;
      setRetry({ provider, send: (password) => connect(provider, password) });
      return null;
    }
    setRetry(null);
    setOutcome({ status: "", failure: result.error.message });
    return null;
  }

  async function disconnect(identity: IdentityView) {
    const result = await unlinkIdentity(sessionClient(), auth, identity.id);
    setOutcome(
      result.ok
        ? { status: `Your ${nameOf(identity.provider)} account was disconnected.`, failure: null }
        : { status: "", failure: result.error.message },
    );
    setVersion((value) => value + 1);
  }

  return (
    <section aria-labelledby={headingId} className="da-card">
      <h2 id={headingId}>Connected accounts</h2>
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? (answer && !answer.ok ? answer.error.message : null)} />
      {retry ? <ReauthPrompt action={`connect ${nameOf(retry.provider)}`} onPassword={retry.send} onCancel={() => setRetry(null)} /> : null}
      {items === null ? (
        <p className="da-field-hint">Loading…</p>
      ) : (
        <ul className="da-sessions">
          {auth.providers.map((provider) => {
            const identity = items.find((candidate) => candidate.provider === provider.id);
            return (
              <li key={provider.id} className="da-session">
                <div className="da-session-head">
                  <strong>{provider.name}</strong>
                  {identity ? (
                    <button
                      type="button"
                      className="da-button"
                      aria-label={`Disconnect ${provider.name}`}
                      onClick={() => disconnect(identity)}
                    >
                      Disconnect
                    </button>
                  ) : (
                    <button type="button" className="da-button" onClick={() => connect(provider.id)}>
                      Connect {provider.name}
                    </button>
                  )}
                </div>
                <p className="da-field-hint">
                  {identity ? `${identity.email ?? "Connected"} · since ${formatValue(identity.createdAt)}` : "Not connected"}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
