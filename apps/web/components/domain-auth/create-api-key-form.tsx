"use client";

import { API_KEY_LIMITS, API_KEY_OPERATIONS } from "@domain-auth/core/policy";
import { type FormEvent, useId, useState } from "react";
import { formErrorSummary, issuesByField } from "@/lib/domain-auth/api";
import { type ApiKeyDraft, type CreatedApiKey, createApiKey, scopesByEntity } from "@/lib/domain-auth/api-keys";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { needsReauthentication, type RetryWithPassword } from "@/lib/domain-auth/reauthentication";
import { FormActions } from "./form-actions";
import { FormError } from "./form-error";
import { ReauthPrompt } from "./reauth-prompt";
import { TextField } from "./text-field";

/** Props of {@link CreateApiKeyForm}. */
export interface CreateApiKeyFormProps {
  readonly auth: Pick<AuthView, "segment" | "apiKeyScopes">;
  readonly onCreated: (created: CreatedApiKey) => void;
  readonly onCancel: () => void;
}

/** When a key made now stops working after `days`: none for `0` (until revoked). */
function expiryAfter(days: number): { expiresAt?: string } {
  return days === 0 ? {} : { expiresAt: new Date(Date.now() + days * 86_400_000).toISOString() };
}

/** How long a new key may work, in days; `0`: until revoked. */
const LIFETIMES = [
  [0, "No expiry"],
  [7, "7 days"],
  [30, "30 days"],
  [90, "90 days"],
  [365, "1 year"],
] as const;

/** A checkbox per operation of each entity, in a table: rows are entities, columns operations. */
function ScopeChoices({
  scopes,
  chosen,
  onToggle,
}: {
  scopes: readonly string[];
  chosen: ReadonlySet<string>;
  onToggle: (scope: string) => void;
}) {
  return (
    <table className="da-scopes">
      <caption className="da-visually-hidden">Operations the key may perform</caption>
      <thead>
        <tr>
          <th scope="col">Records</th>
          {API_KEY_OPERATIONS.map((operation) => (
            <th key={operation} scope="col">
              {operation}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {scopesByEntity(scopes).map(([segment, list]) => (
          <tr key={segment}>
            <th scope="row">{segment}</th>
            {list.map((scope) => (
              <td key={scope}>
                <input type="checkbox" aria-label={scope} checked={chosen.has(scope)} onChange={() => onToggle(scope)} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Creates an API key: its name, how long it works, and what it may do — everything the user's role
 * allows, or only the operations ticked. The key itself goes to `onCreated`, to be shown once.
 */
export function CreateApiKeyForm({ auth, onCreated, onCancel }: CreateApiKeyFormProps) {
  const hydrated = useHydrated();
  const lifetimeId = useId();
  const [name, setName] = useState("");
  const [days, setDays] = useState(0);
  const [narrow, setNarrow] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [retry, setRetry] = useState<RetryWithPassword | null>(null);

  function toggle(scope: string) {
    const next = new Set(chosen);
    if (!next.delete(scope)) next.add(scope);
    setChosen(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    const draft = { name: name.trim(), ...expiryAfter(days), ...(narrow ? { scopes: [...chosen] } : {}) };
    const result = await createApiKey(auth, draft);
    setBusy(false);
    if (result.ok) return onCreated(result.data);
    // A session that signed in too long ago: the same key once the password is confirmed.
    if (needsReauthentication(result)) return setRetry(() => (currentPassword: string) => createWith(draft, currentPassword));
    setFailure({ message: formErrorSummary(result.error, ["name"]) ?? result.error.message, fields: issuesByField(result.error) });
  }

  async function createWith(draft: ApiKeyDraft, currentPassword: string) {
    const result = await createApiKey(auth, { ...draft, currentPassword });
    if (!result.ok && needsReauthentication(result)) return result.error;
    setRetry(null);
    if (result.ok) onCreated(result.data);
    else setFailure({ message: formErrorSummary(result.error, ["name"]) ?? result.error.message, fields: issuesByField(result.error) });
    return null;
  }

  if (retry) return <ReauthPrompt action="create an API key" onPassword={retry} onCancel={() => setRetry(null)} />;

  return (
    <form className="da-form" onSubmit={submit} aria-busy={busy}>
      <FormError error={failure?.message ?? null} />
      <TextField
        label="Key name"
        name="apiKeyName"
        value={name}
        required
        maxLength={API_KEY_LIMITS.maxNameLength}
        autoComplete="off"
        hint="What the key is for, such as “Nightly export”."
        error={failure?.fields.name}
        onChange={(event) => {
          setName(event.target.value);
          // The refused name's sentences go once it is changed.
          if (failure?.fields.name) setFailure(null);
        }}
      />
      <div className="da-field">
        <label htmlFor={lifetimeId}>Expires</label>
        <select id={lifetimeId} value={days} onChange={(event) => setDays(Number(event.target.value))}>
          {LIFETIMES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="da-field da-scopes-choice">
        <legend>May do</legend>
        <TextField
          label="Everything your role allows"
          name="apiKeyScope"
          type="radio"
          checked={!narrow}
          onChange={() => setNarrow(false)}
        />
        <TextField
          label="Only the operations ticked below"
          name="apiKeyScope"
          type="radio"
          checked={narrow}
          onChange={() => setNarrow(true)}
        />
        {narrow ? <ScopeChoices scopes={auth.apiKeyScopes} chosen={chosen} onToggle={toggle} /> : null}
        <p className="da-field-hint">Your profile (me) is always readable with the key; passwords, sessions and keys never are.</p>
      </fieldset>
      <FormActions onCancel={onCancel}>
        <button type="submit" className="da-button da-button-primary" disabled={busy || !hydrated}>
          Create key
        </button>
      </FormActions>
    </form>
  );
}
