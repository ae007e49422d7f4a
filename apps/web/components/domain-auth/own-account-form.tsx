"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { formErrorSummary, issuesByField } from "@/lib/domain-auth/api";
import { useFormErrors } from "@/lib/domain-auth/form-errors";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { FormActions } from "./form-actions";
import { FormError } from "./form-error";

/** Props of {@link OwnAccountForm}. */
export interface OwnAccountFormProps {
  /** The form's heading, which names it. */
  readonly title: string;
  /** The names of the inputs: an issue of the API about one shows beside it, the others above the form. */
  readonly inputs: readonly string[];
  readonly submitLabel: string;
  /** Sends the form; resolves to the API's error, or `null` once done (the form is then closed by its owner). */
  readonly onSubmit: (form: FormData) => Promise<ErrorBody | null>;
  readonly onCancel: () => void;
  /** The inputs, given the sentence of each one's error. */
  readonly children: (errors: Readonly<Record<string, string>>) => ReactNode;
  /** Said under the buttons. */
  readonly footnote?: string | undefined;
}

/**
 * A form of the profile that changes the user's own account (their details, email or password): the
 * first input takes the focus when it opens; a refusal says one sentence per input beside it, and a
 * pointer to them above (or the API's sentence, when no input is at fault), as every form does
 * (`useFormErrors`: an input's error goes once it no longer holds the refused value), and moves the
 * focus to the first input at fault.
 */
export function OwnAccountForm({ title, inputs, submitLabel, onSubmit, onCancel, children, footnote }: OwnAccountFormProps) {
  const headingId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const { error, fail, onChange } = useFormErrors();
  const [refusals, setRefusals] = useState(0);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();

  useEffect(() => {
    const form = formRef.current;
    const target = refusals === 0 ? "input, textarea, select" : '[aria-invalid="true"]';
    form?.querySelector<HTMLElement>(target)?.focus();
  }, [refusals]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const failure = await onSubmit(new FormData(form));
    if (!failure) return;
    fail(failure, form);
    setPending(false);
    setRefusals((count) => count + 1);
  }

  return (
    <form
      ref={formRef}
      className="da-form"
      method="post"
      onSubmit={submit}
      onChange={onChange}
      aria-labelledby={headingId}
      aria-busy={pending}
    >
      <h3 id={headingId}>{title}</h3>
      <FormError error={formErrorSummary(error, inputs)} />
      {children(issuesByField(error))}
      <FormActions onCancel={onCancel} busy={pending}>
        <button type="submit" className="da-button da-button-primary" disabled={pending || !hydrated}>
          {pending ? "Please wait…" : submitLabel}
        </button>
      </FormActions>
      {footnote ? <p className="da-field-hint">{footnote}</p> : null}
    </form>
  );
}
