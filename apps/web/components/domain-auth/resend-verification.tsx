"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { ACCOUNT_TOKEN_LIFETIMES, apiPaths } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { callApi } from "@/lib/domain-auth/api";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { describeSignInError } from "@/lib/domain-auth/sign-in";
import { FormError } from "./form-error";
import { TextField } from "./text-field";

/** Props of {@link ResendVerification}. */
export interface ResendVerificationProps {
  readonly auth: AuthView;
  /** The address to send to; without it, the form asks for one. */
  readonly email?: string;
  /** No link was sent before (registering sends none without `auth.verifyEmail`). @default false */
  readonly first?: boolean;
}

/** Sends a new confirmation link (the earlier ones stop working). */
export function ResendVerification({ auth, email, first = false }: ResendVerificationProps) {
  const [error, setError] = useState<ErrorBody | null>(null);
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email ?? String(new FormData(event.currentTarget).get("email") ?? "");
    setPending(true);
    const result = await callApi(apiPaths(auth).resendVerification, { method: "POST", body: { email: address } });
    setPending(false);
    setError(result.ok ? null : describeSignInError(result));
    setSent(result.ok);
  }

  if (sent) {
    const hours = ACCOUNT_TOKEN_LIFETIMES.verify / 3600;
    return (
      <p className="da-status" role="status">
        If the address needs confirming, a new link is on its way. It works once, for {hours} hours.
      </p>
    );
  }
  return (
    <form className="da-form" method="post" onSubmit={submit} aria-busy={pending}>
      <FormError error={error} />
      {email === undefined ? <TextField label="Email" name="email" type="email" autoComplete="email" required /> : null}
      <button type="submit" className="da-button" disabled={pending || !hydrated}>
        {pending ? "Please wait…" : first ? "Send me a confirmation link" : "Send a new confirmation link"}
      </button>
    </form>
  );
}
