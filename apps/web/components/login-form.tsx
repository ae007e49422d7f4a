"use client";

import { useRouter } from "next/navigation";
import { AccountForm } from "@/components/account-form";
import type { AuthView } from "@/lib/domain-view";
import { describeSignInError, requestToken } from "@/lib/sign-in";

/** Signs in with email and password and opens the profile. */
export function LoginForm({ auth }: { readonly auth: AuthView }) {
  const router = useRouter();
  return (
    <AccountForm
      fields={[]}
      submitLabel="Sign in"
      passwordAutoComplete="current-password"
      onSubmit={async (body) => {
        const error = await requestToken(auth, "login", body);
        if (error) return describeSignInError(error);
        router.push("/profile");
        return null;
      }}
    />
  );
}
