"use client";

import type { RetryWithPassword } from "@/lib/domain-auth/reauthentication";
import { CURRENT_PASSWORD_FIELD, SecretFieldsForm } from "./secret-fields-form";

/** Props of {@link ReauthPrompt}. */
export interface ReauthPromptProps {
  /** What the user is doing, as the end of "To …, confirm it is you": "add a passkey". */
  readonly action: string;
  /** Sends the request again with the password typed; a wrong one shows beside the input. */
  readonly onPassword: RetryWithPassword;
  readonly onCancel?: () => void;
}

/**
 * Asks for the password before a sensitive action when the session signed in too long ago: a
 * session copied from this browser cannot add a factor or a key without it. Without a password
 * (an account that signs in with a passkey), signing in again makes the session recent.
 */
export function ReauthPrompt({ action, onPassword, onCancel }: ReauthPromptProps) {
  return (
    <div className="da-reauth">
      <p>To {action}, confirm it is you: enter your password. You signed in a while ago, and this change needs a recent sign-in.</p>
      <SecretFieldsForm
        fields={[CURRENT_PASSWORD_FIELD]}
        submitLabel="Confirm"
        onSubmit={(values) => onPassword(values.currentPassword ?? "")}
        onCancel={onCancel}
      />
      <p className="da-field-hint">No password on this account? Sign out and sign in again (with your passkey), then try again.</p>
    </div>
  );
}
