"use client";

import { type ErrorBody, MAX_EMAIL_LENGTH } from "@domain-auth/core/policy";
import { useEffect, useId, useRef, useState } from "react";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { type CredentialsChange, changeOwnCredentials } from "@/lib/domain-auth/own-account";
import type { UserProfile } from "@/lib/domain-auth/profile";
import { sessionClient } from "@/lib/domain-auth/session";
import { NewPasswordField } from "./new-password-field";
import { OwnAccountForm } from "./own-account-form";
import { TextField } from "./text-field";

/** The inputs of each form, by name. */
const EMAIL_INPUTS = ["email", "currentPassword"];
const PASSWORD_INPUTS = ["currentPassword", "password"];

/** The current password, asked by both forms: without it, a stolen session could take the account over. */
function CurrentPasswordField({ error }: { readonly error: string | undefined }) {
  return (
    <TextField label="Current password" name="currentPassword" type="password" autoComplete="current-password" required error={error} />
  );
}

/** Props of {@link CredentialsSection}. */
export interface CredentialsSectionProps {
  readonly auth: AuthView;
  /** The signed-in user. */
  readonly user: UserProfile;
  /** The change signed out the user's other sessions. */
  readonly onOtherSessionsEnded: () => void;
}

/** The form open, if any. */
type Form = "email" | "password";

/** What the section says once the email is changed: where the domain confirms addresses, that a link went to the new one. */
function emailChanged(auth: Pick<AuthView, "verifyEmail">, email: string): string {
  const link = auth.verifyEmail ? ` We sent a confirmation link to ${email}: follow it to confirm the address.` : "";
  return `Your email address is now ${email}.${link} Your other devices have been signed out.`;
}

/** Who may have no password to give: an account made with a provider, or one that signs in with a passkey. */
function noPasswordHint(auth: AuthView): string | undefined {
  if (!auth.endpoints.passwordReset || (auth.providers.length === 0 && !auth.endpoints.passkeys)) return undefined;
  return "No password on this account? Sign out, then choose one with “Forgot password?” on the sign-in page.";
}

/** Props of a form of {@link CredentialsSection}. */
interface ChangeFormProps {
  /** Sends the change; resolves to the refusal, or `null` once changed. */
  readonly change: (body: CredentialsChange) => Promise<ErrorBody | null>;
  readonly onCancel: () => void;
}

const formValue = (form: FormData, name: string) => String(form.get(name) ?? "");

/** A new email address and the current password. */
function ChangeEmailForm({ change, onCancel }: ChangeFormProps) {
  return (
    <OwnAccountForm
      title="Change your email"
      inputs={EMAIL_INPUTS}
      submitLabel="Change email"
      onCancel={onCancel}
      onSubmit={(form) => change({ email: formValue(form, "email"), currentPassword: formValue(form, "currentPassword") })}
    >
      {(errors) => (
        <>
          <TextField
            label="New email"
            name="email"
            type="email"
            autoComplete="email"
            maxLength={MAX_EMAIL_LENGTH}
            required
            error={errors.email}
          />
          <CurrentPasswordField error={errors.currentPassword} />
        </>
      )}
    </OwnAccountForm>
  );
}

/** The current password and a new one, with the new one's strength as it is typed. */
function ChangePasswordForm({ change, onCancel, footnote }: ChangeFormProps & { readonly footnote: string | undefined }) {
  return (
    <OwnAccountForm
      title="Change your password"
      inputs={PASSWORD_INPUTS}
      submitLabel="Change password"
      onCancel={onCancel}
      footnote={footnote}
      onSubmit={(form) => change({ password: formValue(form, "password"), currentPassword: formValue(form, "currentPassword") })}
    >
      {(errors) => (
        <>
          <CurrentPasswordField error={errors.currentPassword} />
          <NewPasswordField label="New password" error={errors.password} />
        </>
      )}
    </OwnAccountForm>
  );
}

/** What the section says once a change went through. */
function changedMessage(auth: Pick<AuthView, "verifyEmail">, before: UserProfile, after: UserProfile, body: CredentialsChange): string {
  if ("password" in body) return "Your password has been changed. Your other devices have been signed out.";
  if (after.email === before.email) return `Your email address is already ${after.email}.`;
  return emailChanged(auth, after.email);
}

/**
 * The profile's "Email and password": changing either with the current password
 * (docs/api.md#the-auth-entity). The change keeps this browser signed in with fresh session cookies
 * and signs out the user's other devices; a wrong current password is said beside its input (and
 * counts as a failed sign-in). Closing a form gives the focus back to the button that opened it.
 */
export function CredentialsSection({ auth, user, onOtherSessionsEnded }: CredentialsSectionProps) {
  const headingId = useId();
  const [open, setOpen] = useState<Form | null>(null);
  const [status, setStatus] = useState("");
  const buttons = useRef<Partial<Record<Form, HTMLButtonElement | null>>>({});
  const closed = useRef<Form | null>(null);

  useEffect(() => {
    if (open === null && closed.current) buttons.current[closed.current]?.focus();
  }, [open]);

  const show = (form: Form | null) => {
    closed.current = open;
    setStatus("");
    setOpen(form);
  };

  async function change(body: CredentialsChange): Promise<ErrorBody | null> {
    const result = await changeOwnCredentials(sessionClient(), auth, user, body);
    if (!result.ok) return result.error;
    show(null);
    setStatus(changedMessage(auth, user, result.user, body));
    // Only an email the user already had changes nothing, and ends no session.
    if ("password" in body || result.user.email !== user.email) onOtherSessionsEnded();
    return null;
  }

  const opener = (form: Form, label: string) => (
    <button
      type="button"
      className="da-button"
      ref={(button) => {
        buttons.current[form] = button;
      }}
      onClick={() => show(form)}
    >
      {label}
    </button>
  );
  return (
    <section aria-labelledby={headingId} className="da-card">
      <h2 id={headingId}>Email and password</h2>
      <p className="da-status" role="status">
        {status}
      </p>
      {open === "email" ? <ChangeEmailForm change={change} onCancel={() => show(null)} /> : null}
      {open === "password" ? <ChangePasswordForm change={change} onCancel={() => show(null)} footnote={noPasswordHint(auth)} /> : null}
      {open === null ? (
        <div className="da-actions">
          {opener("email", "Change email")}
          {opener("password", "Change password")}
        </div>
      ) : null}
    </section>
  );
}
