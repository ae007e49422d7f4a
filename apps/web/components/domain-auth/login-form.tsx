"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { AccountForm } from "@/components/domain-auth/account-form";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { describeSignInError, type SecondStep, signIn } from "@/lib/domain-auth/sign-in";
import { FormError } from "./form-error";
import { SecondStepView } from "./second-step";

/** Props of {@link LoginForm}. */
export interface LoginFormProps {
  readonly auth: AuthView;
  /** The page to open once signed in: a path of this app (`afterSignIn` of the `next` parameter). */
  readonly destination: string;
}

/**
 * Signs in with email and password and opens `destination`. Where the password opens no session yet
 * (CONTRACT §15), the same page asks for the second factor, or sets up the one the user's role
 * requires; when that step's time runs out, the password is asked again, with the reason.
 */
export function LoginForm({ auth, destination }: LoginFormProps) {
  const router = useRouter();
  const [step, setStep] = useState<SecondStep | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (step) {
    return (
      <SecondStepView
        auth={auth}
        step={step}
        onSignedIn={() => router.push(destination)}
        onExpired={(message) => {
          setStep(null);
          setNotice(message);
        }}
      />
    );
  }
  return (
    <>
      <FormError error={notice} />
      <AccountForm
        fields={[]}
        submitLabel="Sign in"
        passwordAutoComplete="current-password"
        onSubmit={async (body) => {
          setNotice(null);
          const result = await signIn(auth, "login", body);
          if (!result.ok) return describeSignInError(result);
          if (result.data.kind === "signed-in") router.push(destination);
          else setStep(result.data);
          return null;
        }}
      />
    </>
  );
}
