"use client";

import { useId, useState } from "react";
import { type ApiKey, revokeApiKey, useApiKeys } from "@/lib/domain-auth/api-keys";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useUserChoices } from "@/lib/domain-auth/user-choices";
import { ApiKeyList } from "./api-key-list";
import { FormError } from "./form-error";

/** "API keys" on `/admin` (docs/api-keys.md): the setup role picks a user and sees, and may revoke, their keys. */
export function UserApiKeys({ auth }: { readonly auth: Pick<AuthView, "segment"> }) {
  const headingId = useId();
  const userFieldId = useId();
  const users = useUserChoices(auth);
  const [userId, setUserId] = useState("");
  const keys = useApiKeys(auth, { userId });
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const email = users.find((user) => user.id === userId)?.email ?? "";

  async function revoke(key: ApiKey) {
    const result = await revokeApiKey(auth, key.id);
    setFailure(result.ok ? null : result.error.message);
    if (result.ok) setStatus(`The API key “${key.name}” of ${email} was revoked.`);
    keys.reload();
  }

  return (
    <section className="da-card" aria-labelledby={headingId}>
      <h2 id={headingId}>API keys</h2>
      <div className="da-inline-form">
        <label htmlFor={userFieldId}>User</label>
        <select
          id={userFieldId}
          value={userId}
          onChange={(event) => {
            setStatus("");
            setFailure(null);
            setUserId(event.target.value);
          }}
        >
          <option value="">Choose a user</option>
          {users.map((user) => (
            <option key={user.id} value={user.id}>
              {user.email}
            </option>
          ))}
        </select>
      </div>
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? keys.error?.message ?? null} />
      {userId === "" ? null : <ApiKeyList items={keys.items} label={`API keys of ${email}`} onRevoke={revoke} />}
    </section>
  );
}
