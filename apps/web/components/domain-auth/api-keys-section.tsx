"use client";

import { useId, useState } from "react";
import { type ApiKey, type CreatedApiKey, revokeApiKey, useApiKeys } from "@/lib/domain-auth/api-keys";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { ApiKeyList } from "./api-key-list";
import { CreateApiKeyForm } from "./create-api-key-form";
import { FormError } from "./form-error";
import { NewApiKey } from "./new-api-key";

/** Props of {@link ApiKeysSection}. */
export interface ApiKeysSectionProps {
  readonly auth: Pick<AuthView, "segment" | "apiKeyScopes">;
}

/**
 * "API keys" on `/profile` (docs/api-keys.md): keys for programs that call the API as the user — each
 * with its name, what it may do, when it expires and when it was last used, each revocable — and a
 * form that creates one, whose key is shown once to copy.
 */
export function ApiKeysSection({ auth }: ApiKeysSectionProps) {
  const headingId = useId();
  const keys = useApiKeys(auth);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);

  async function revoke(key: ApiKey) {
    const result = await revokeApiKey(auth, key.id);
    setFailure(result.ok ? null : result.error.message);
    if (result.ok) setStatus(`The API key “${key.name}” was revoked: it no longer works.`);
    keys.reload();
  }

  function done(key: CreatedApiKey) {
    setCreating(false);
    setCreated(key);
    setStatus("");
    keys.reload();
  }

  return (
    <section aria-labelledby={headingId} className="da-card">
      <h2 id={headingId}>API keys</h2>
      <p className="da-field-hint">
        An API key lets a program call this site’s API as you, with your role, for your profile and records — never for your password,
        sessions, two-step verification or keys.
      </p>
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? keys.error?.message ?? null} />
      {created ? <NewApiKey created={created} onDone={() => setCreated(null)} /> : null}
      <ApiKeyList items={keys.items} label="Your API keys" onRevoke={revoke} />
      {creating ? (
        <CreateApiKeyForm auth={auth} onCreated={done} onCancel={() => setCreating(false)} />
      ) : (
        <div className="da-actions">
          <button type="button" className="da-button" onClick={() => setCreating(true)}>
            Create an API key
          </button>
        </div>
      )}
    </section>
  );
}
