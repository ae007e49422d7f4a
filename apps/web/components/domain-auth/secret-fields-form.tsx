"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { formErrorSummary, issuesByField } from "@/lib/domain-auth/api";
import { useFormErrors } from "@/lib/domain-auth/form-errors";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { FormActions } from "./form-actions";
import { FormError } from "./form-error";
import { TextField } from "./text-field";

/** One input of a {@link SecretFieldsForm}: a password or a code, sent under `name`. */
export interface SecretField {
  readonly name: string;
  readonly label: string;
  /** @default "text" */
  readonly type?: "password" | "text";
  readonly autoComplete: string;
  readonly inputMode?: "numeric" | "text";
  readonly hint?: string;
}

/** A code of the authenticator app (spaces allowed, as apps show `123 456`). */
export const TOTP_CODE_FIELD: SecretField = {
  name: "code",
  label: "Authentication code",
  autoComplete: "one-time-code",
  inputMode: "numeric",
  hint: "The 6-digit code your authenticator app shows now.",
};

/** One of the recovery codes saved when two-step verification was turned on. */
export const RECOVERY_CODE_FIELD: SecretField = {
  name: "recoveryCode",
  label: "Recovery code",
  autoComplete: "off",
  hint: "One of the codes you saved when you turned on two-step verification; each works once.",
};

/** The password of the signed-in user, asked again before a change of their factors. */
export const CURRENT_PASSWORD_FIELD: SecretField = {
  name: "currentPassword",
  label: "Current password",
  type: "password",
  autoComplete: "current-password",
};

/** Props of {@link SecretFieldsForm}. */
export interface SecretFieldsFormProps {
  readonly fields: readonly SecretField[];
  readonly submitLabel: string;
  /** Sends the values; resolves to the API's error, or `null` once done (the form then stays busy until it is replaced). */
  readonly onSubmit: (values: Readonly<Record<string, string>>) => Promise<ErrorBody | null>;
  /** Shows "Cancel", which calls it. @default no cancel button */
  readonly onCancel?: () => void;
  /** The first input takes the focus when the form appears. @default true */
  readonly autoFocus?: boolean;
}

/**
 * A few secret inputs (passwords, codes) and a submit: the API's issues beside the inputs they
 * concern, the rest above them. The first input takes the focus (unless told otherwise), so a
 * keyboard user who opened the form types at once.
 */
export function SecretFieldsForm({ fields, submitLabel, onSubmit, onCancel, autoFocus = true }: SecretFieldsFormProps) {
  const { error, fail, onChange } = useFormErrors();
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const fieldErrors = issuesByField(error);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    const values = Object.fromEntries(fields.map((field) => [field.name, String(form.get(field.name) ?? "")]));
    setPending(true);
    const failure = await onSubmit(values);
    if (!failure) return;
    fail(failure, element);
    setPending(false);
  }

  return (
    <form className="da-form" method="post" onSubmit={submit} onChange={onChange} aria-busy={pending}>
      <FormError
        error={formErrorSummary(
          error,
          fields.map((field) => field.name),
        )}
      />
      {fields.map((field, index) => (
        <TextField
          key={field.name}
          label={field.label}
          name={field.name}
          type={field.type ?? "text"}
          autoComplete={field.autoComplete}
          inputMode={field.inputMode}
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus={autoFocus && index === 0}
          hint={field.hint}
          error={fieldErrors[field.name]}
        />
      ))}
      <FormActions onCancel={onCancel} busy={pending}>
        <button type="submit" className="da-button da-button-primary" disabled={pending || !hydrated}>
          {pending ? "Please wait…" : submitLabel}
        </button>
      </FormActions>
    </form>
  );
}
