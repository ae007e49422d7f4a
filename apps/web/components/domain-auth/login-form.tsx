"use client";

import { useRouter } from "next/navigation";
import { AccountForm } from "@/components/domain-auth/account-form";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { describeSignInError, signIn } from "@/lib/domain-auth/sign-in";

/** Props of {@link LoginForm}. */
export interface LoginFormProps {
  readonly auth: AuthView;
  /** The page to open once signed in: a path of this app (`afterSignIn` of the `next` parameter). */
  readonly destination: string;
}

/** Signs in with email and password and opens `destination`. */
export function LoginForm({ auth, destination }: LoginFormProps) {
  const router = useRouter();
  return (
    <AccountForm
      fields={[]}
      submitLabel="Sign in"
      passwordAutoComplete="current-password"
      onSubmit={async (body) => {
        const failure = await signIn(auth, "login", body);
        if (failure) return describeSignInError(failure);
        router.push(destination);
        return null;
      }}
    />
  );
}
