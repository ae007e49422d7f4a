"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { formErrorSummary, issuesByField } from "@/lib/domain-auth/api";
import type { FieldView } from "@/lib/domain-auth/domain-view";
import { useFormErrors } from "@/lib/domain-auth/form-errors";
import { readFieldValues } from "@/lib/domain-auth/form-values";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { FieldInput } from "./field-input";
import { FormError } from "./form-error";
import { NewPasswordField } from "./new-password-field";
import { TextField } from "./text-field";

/** A secret asked before the account's fields and sent under its `name` (the setup token). */
export interface SecretFieldView {
  readonly name: string;
  readonly label: string;
  readonly hint: string;
}

/** Props of {@link AccountForm}. */
export interface AccountFormProps {
  /** A secret asked first (the setup token); none by default. */
  readonly secretField?: SecretFieldView | undefined;
  /** Declared fields asked besides email and password (none for sign-in). */
  readonly fields: readonly FieldView[];
  readonly submitLabel: string;
  readonly passwordAutoComplete: "new-password" | "current-password";
  /** Shown under a current password's input; a new password's says what the rules are, and its strength. */
  readonly passwordHint?: string;
  /** Sends the body; resolves to the API's error, or `null` once the page has moved on. */
  readonly onSubmit: (body: Record<string, unknown>) => Promise<ErrorBody | null>;
}

/** Email, password and extra fields, with the API's issues shown beside the inputs they concern. */
export function AccountForm({ secretField, fields, submitLabel, passwordAutoComplete, passwordHint, onSubmit }: AccountFormProps) {
  const { error, fail, onChange } = useFormErrors();
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const fieldErrors = issuesByField(error);
  const inputNames = [...(secretField ? [secretField.name] : []), "email", "password", ...fields.map((field) => field.name)];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    setPending(true);
    const body: Record<string, unknown> = {
      email: form.get("email"),
      password: form.get("password"),
      ...readFieldValues(fields, form, "create"),
    };
    if (secretField) body[secretField.name] = form.get(secretField.name);
    const failure = await onSubmit(body);
    if (!failure) return;
    fail(failure, element);
    setPending(false);
  }

  return (
    <form className="da-form" method="post" onSubmit={submit} onChange={onChange} aria-busy={pending}>
      <FormError error={formErrorSummary(error, inputNames)} />
      {secretField ? (
        <TextField
          label={secretField.label}
          name={secretField.name}
          type="password"
          autoComplete="off"
          required
          hint={secretField.hint}
          error={fieldErrors[secretField.name]}
        />
      ) : null}
      <TextField label="Email" name="email" type="email" autoComplete="email" required error={fieldErrors.email} />
      {passwordAutoComplete === "new-password" ? (
        <NewPasswordField label="Password" error={fieldErrors.password} />
      ) : (
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete={passwordAutoComplete}
          required
          hint={passwordHint}
          error={fieldErrors.password}
        />
      )}
      {fields.map((field) => (
        <FieldInput key={field.name} field={field} error={fieldErrors[field.name]} />
      ))}
      <button type="submit" className="da-button da-button-primary" disabled={pending || !hydrated}>
        {pending ? "Please wait…" : submitLabel}
      </button>
    </form>
  );
}
