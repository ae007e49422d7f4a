"use client";

import { type FormEvent, useState } from "react";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { addPasskey, type Passkey } from "@/lib/domain-auth/passkeys";
import { needsReauthentication } from "@/lib/domain-auth/reauthentication";
import type { SecondFactorAuth } from "@/lib/domain-auth/second-factor";
import { sessionClient } from "@/lib/domain-auth/session";
import { FormActions } from "./form-actions";
import { FormError } from "./form-error";
import { ReauthPrompt } from "./reauth-prompt";
import { TextField } from "./text-field";

/** Props of {@link AddPasskeyForm}. */
export interface AddPasskeyFormProps {
  readonly auth: SecondFactorAuth;
  /** The `mfaToken` of a required enrolment: the passkey it adds also signs in. @default the session's own */
  readonly enrolmentToken?: string | null;
  readonly onAdded: (passkey: Passkey) => void;
  /** The enrolment token died (only with `enrolmentToken`). */
  readonly onRefused?: () => void;
  readonly onCancel?: () => void;
}

/**
 * Adds a passkey: a name to know it by (optional), then the browser's own prompt (Touch ID, Windows
 * Hello, a phone or a security key). The prompt's refusal and the server's are shown above the form.
 */
export function AddPasskeyForm({ auth, enrolmentToken, onAdded, onRefused, onCancel }: AddPasskeyFormProps) {
  const hydrated = useHydrated();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [reauth, setReauth] = useState(false);

  async function add(currentPassword?: string) {
    setBusy(true);
    setFailure(null);
    const result = await addPasskey(sessionClient(), auth, name.trim(), { enrolmentToken, currentPassword });
    setBusy(false);
    if (result.ok) return onAdded(result.data);
    if ("prompt" in result) return setFailure(result.message);
    if (enrolmentToken !== undefined && result.status === 401) return onRefused?.();
    if (needsReauthentication(result) && currentPassword === undefined) return setReauth(true);
    setFailure(result.error.message);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await add();
  }

  async function retry(currentPassword: string) {
    const result = await addPasskey(sessionClient(), auth, name.trim(), { currentPassword });
    if (!result.ok && !("prompt" in result) && needsReauthentication(result)) return result.error;
    setReauth(false);
    if (result.ok) onAdded(result.data);
    else setFailure("prompt" in result ? result.message : result.error.message);
    return null;
  }

  if (reauth) return <ReauthPrompt action="add a passkey" onPassword={retry} onCancel={() => setReauth(false)} />;

  return (
    <form onSubmit={submit} aria-busy={busy}>
      <FormError error={failure} />
      <TextField
        label="Passkey name"
        name="passkeyName"
        value={name}
        maxLength={64}
        autoComplete="off"
        placeholder="Passkey"
        hint="Optional: to tell it from your other passkeys, such as “Laptop” or “Phone”."
        onChange={(event) => setName(event.target.value)}
      />
      <FormActions onCancel={onCancel}>
        <button type="submit" className="da-button da-button-primary" disabled={busy || !hydrated}>
          {busy ? "Waiting for your device…" : "Add a passkey"}
        </button>
      </FormActions>
    </form>
  );
}
