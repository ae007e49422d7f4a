"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { formErrorSummary, issuesByField } from "@/lib/domain-auth/api";
import type { FieldView } from "@/lib/domain-auth/domain-view";
import { useFormErrors } from "@/lib/domain-auth/form-errors";
import { readFieldValues } from "@/lib/domain-auth/form-values";
import { FieldInput } from "./field-input";
import { FormActions } from "./form-actions";
import { FormError } from "./form-error";

/** Props of {@link RecordForm}. */
export interface RecordFormProps {
  readonly title: string;
  readonly fields: readonly FieldView[];
  /** The record to edit; absent to create one. */
  readonly record?: Record<string, unknown>;
  readonly submitLabel: string;
  /** Sends the body; resolves to the API's error, or `null` when saved. */
  readonly onSubmit: (body: Record<string, unknown>) => Promise<ErrorBody | null>;
  readonly onCancel: () => void;
}

/** A create or edit form generated from an entity's fields, with the API's issues inline. */
export function RecordForm({ title, fields, record, submitLabel, onSubmit, onCancel }: RecordFormProps) {
  const headingId = useId();
  const { error, fail, onChange } = useFormErrors();
  const [pending, setPending] = useState(false);
  const fieldErrors = issuesByField(error);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>("input, textarea, select")?.focus();
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const failure = await onSubmit(readFieldValues(fields, new FormData(form), record ? "update" : "create"));
    setPending(false);
    fail(failure, form);
  }

  return (
    <form
      ref={formRef}
      className="da-form da-card"
      method="post"
      onSubmit={submit}
      onChange={onChange}
      aria-labelledby={headingId}
      aria-busy={pending}
    >
      <h3 id={headingId}>{title}</h3>
      <FormError
        error={formErrorSummary(
          error,
          fields.map((field) => field.name),
        )}
      />
      {fields.map((field) => (
        <FieldInput key={field.name} field={field} record={record} error={fieldErrors[field.name]} />
      ))}
      <FormActions onCancel={onCancel}>
        <button type="submit" className="da-button da-button-primary" disabled={pending}>
          {submitLabel}
        </button>
      </FormActions>
    </form>
  );
}
