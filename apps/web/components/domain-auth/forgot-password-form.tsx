"use client";

import { ACCOUNT_TOKEN_LIFETIMES, apiPaths } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { callApi, formErrorSummary, issuesByField } from "@/lib/domain-auth/api";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useFormErrors } from "@/lib/domain-auth/form-errors";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { describeSignInError } from "@/lib/domain-auth/sign-in";
import { FormError } from "./form-error";
import { TextField } from "./text-field";

/** Asks for a reset link; the answer is the same whether the address has an account or not. */
export function ForgotPasswordForm({ auth }: { readonly auth: AuthView }) {
  const { error, fail, onChange } = useFormErrors();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const email = String(new FormData(form).get("email") ?? "");
    setPending(true);
    const result = await callApi(apiPaths(auth).forgotPassword, { method: "POST", body: { email } });
    setPending(false);
    fail(result.ok ? null : describeSignInError(result), form);
    setSentTo(result.ok ? email : null);
  }

  if (sentTo !== null) {
    const minutes = ACCOUNT_TOKEN_LIFETIMES.reset / 60;
    return (
      <p className="da-notice" role="status">
        If {sentTo} has an account, a link to choose a new password is on its way. It works once, for {minutes} minutes.
      </p>
    );
  }
  const emailError = issuesByField(error).email;
  return (
    <form className="da-form" method="post" onSubmit={submit} onChange={onChange} aria-busy={pending}>
      <p>Enter your email address and we will send you a link to choose a new password.</p>
      <FormError error={emailError ? null : formErrorSummary(error, [])} />
      <TextField label="Email" name="email" type="email" autoComplete="email" required error={emailError} />
      <button type="submit" className="da-button da-button-primary" disabled={pending || !hydrated}>
        {pending ? "Please wait…" : "Send the link"}
      </button>
    </form>
  );
}
