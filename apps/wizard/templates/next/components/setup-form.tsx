"use client";

import { useRouter } from "next/navigation";
import { AccountForm } from "@/components/account-form";
import type { AuthView } from "@/lib/domain-view";
import { requestToken } from "@/lib/sign-in";

/** Creates the first administrator, signs them in and opens their profile. */
export function SetupForm({ auth }: { readonly auth: AuthView }) {
  const router = useRouter();
  return (
    <AccountForm
      fields={auth.profileFields}
      submitLabel="Create administrator"
      passwordAutoComplete="new-password"
      passwordHint="At least 8 characters, at most 72 bytes (accented letters and emoji count 2 to 4)."
      onSubmit={async (body) => {
        const error = await requestToken(auth.segment, "setup", body);
        if (error?.code === "SETUP_COMPLETE") router.refresh();
        else if (!error) router.push("/profile");
        return error;
      }}
    />
  );
}
