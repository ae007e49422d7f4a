"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { AccountForm } from "@/components/domain-auth/account-form";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { signInWithPasskey } from "@/lib/domain-auth/passkeys";
import { sessionClient } from "@/lib/domain-auth/session";
import { describeSignInError, type SecondStep, signIn } from "@/lib/domain-auth/sign-in";
import { FormError } from "./form-error";
import { SecondStepView } from "./second-step";

/** Props of {@link LoginForm}. */
export interface LoginFormProps {
  readonly auth: AuthView;
  /** The page to open once signed in: a path of this app (`afterSignIn` of the `next` parameter). */
  readonly destination: string;
  /** A second step already under way: after a provider's sign-in, its token in a cookie. */
  readonly initialStep?: SecondStep | null;
  /** Why the page was opened again (a provider's refusal, in a sentence). */
  readonly initialNotice?: string | null;
}

/**
 * Signs in with email and password and opens `destination`. Where the password opens no session yet
 * (docs/mfa.md), the same page asks for the second factor, or sets up the one the user's role
 * requires; when that step's time runs out, the password is asked again, with the reason. Where the
 * domain serves passkeys, "Sign in with a passkey" signs in without the password.
 */
export function LoginForm({ auth, destination, initialStep = null, initialNotice = null }: LoginFormProps) {
  const router = useRouter();
  const [step, setStep] = useState<SecondStep | null>(initialStep);
  const [notice, setNotice] = useState<string | null>(initialNotice);

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
      {auth.endpoints.passkeys ? (
        <PasskeySignIn
          auth={auth}
          onSignedIn={() => router.push(destination)}
          onFailed={(message) => setNotice(message)}
          onStart={() => setNotice(null)}
        />
      ) : null}
    </>
  );
}

/** "Sign in with a passkey": the browser offers this site's passkeys, no email or password needed. */
function PasskeySignIn({
  auth,
  onSignedIn,
  onFailed,
  onStart,
}: {
  readonly auth: AuthView;
  readonly onSignedIn: () => void;
  readonly onFailed: (message: string) => void;
  readonly onStart: () => void;
}) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  async function start() {
    onStart();
    setBusy(true);
    const failure = await signInWithPasskey(sessionClient(), auth);
    setBusy(false);
    if (!failure) return onSignedIn();
    onFailed("prompt" in failure ? failure.message : describeSignInError(failure).message);
  }
  return (
    <div className="da-actions da-alternative">
      <button type="button" className="da-button" onClick={start} disabled={busy || !hydrated}>
        {busy ? "Waiting for your device…" : "Sign in with a passkey"}
      </button>
    </div>
  );
}
