"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { issuesByField } from "@/lib/domain-auth/api";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useFormErrors } from "@/lib/domain-auth/form-errors";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { type SecondStep, signIn } from "@/lib/domain-auth/sign-in";
import { FormError } from "./form-error";
import { NewPasswordField } from "./new-password-field";
import { SecondStepView } from "./second-step";

/** Props of {@link ResetPasswordForm}. */
export interface ResetPasswordFormProps {
  readonly auth: AuthView;
  /** The token of the link. */
  readonly token: string;
  /** The link is an invitation: the user chooses their first password. */
  readonly invite: boolean;
}

/**
 * A new password for the link's account; the answer signs in and the profile opens. An account with
 * a second factor keeps it (docs/mfa.md): the page then asks for a code before the session starts.
 */
export function ResetPasswordForm({ auth, token, invite }: ResetPasswordFormProps) {
  const router = useRouter();
  const { error, fail, onChange } = useFormErrors();
  const [pending, setPending] = useState(false);
  const [step, setStep] = useState<SecondStep | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const hydrated = useHydrated();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const password = String(new FormData(form).get("password") ?? "");
    setPending(true);
    const result = await signIn(auth, "resetPassword", { token, password });
    if (!result.ok) {
      fail(result.error, form);
      setPending(false);
    } else if (result.data.kind === "signed-in") router.push("/profile");
    else setStep(result.data);
  }

  if (changed) {
    return (
      <div className="da-notice" role="alert">
        <p>Your password has been changed. {changed}</p>
        <p>
          <Link href="/login">Sign in</Link>
        </p>
      </div>
    );
  }
  if (step) {
    return <SecondStepView auth={auth} step={step} onSignedIn={() => router.push("/profile")} onExpired={setChanged} />;
  }

  if (!token || error?.code === "INVALID_RESET_TOKEN") {
    return (
      <div className="da-notice da-notice-denied" role="alert">
        <p>
          This link is invalid, already used, replaced by a newer one, or expired.{" "}
          {invite ? "Ask the administrator to invite you again." : null}
        </p>
        {invite ? null : (
          <p>
            <Link href="/forgot-password">Ask for a new link</Link>
          </p>
        )}
      </div>
    );
  }
  const fieldErrors = issuesByField(error);
  return (
    <form className="da-form" method="post" onSubmit={submit} onChange={onChange} aria-busy={pending}>
      <FormError error={fieldErrors.password ? null : error} />
      <NewPasswordField label={invite ? "Your password" : "New password"} error={fieldErrors.password} />
      <button type="submit" className="da-button da-button-primary" disabled={pending || !hydrated}>
        {pending ? "Please wait…" : invite ? "Set my password and sign in" : "Change my password and sign in"}
      </button>
    </form>
  );
}
