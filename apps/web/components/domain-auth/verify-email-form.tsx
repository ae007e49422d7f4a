"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { apiPaths } from "@domain-auth/core/policy";
import Link from "next/link";
import { useState } from "react";
import { callApi } from "@/lib/domain-auth/api";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { FormError } from "./form-error";
import { ResendVerification } from "./resend-verification";

/** Confirms the address of a verification link with one click. */
export function VerifyEmailForm({ auth, token }: { readonly auth: AuthView; readonly token: string }) {
  const [outcome, setOutcome] = useState<{ email: string } | ErrorBody | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();

  async function confirm() {
    setPending(true);
    const result = await callApi<{ user: { email: string } }>(apiPaths(auth).verifyEmail, { method: "POST", body: { token } });
    setOutcome(result.ok ? { email: result.data.user.email } : result.error);
    setPending(false);
  }

  if (outcome && "email" in outcome) {
    return (
      <div className="da-notice" role="status">
        <p>{outcome.email} is confirmed.</p>
        {auth.endpoints.login ? (
          <p>
            <Link href="/profile">Continue</Link>
          </p>
        ) : null}
      </div>
    );
  }
  if (outcome?.code === "INVALID_VERIFICATION_TOKEN") {
    return (
      <>
        <FormError error={outcome} />
        <ResendVerification auth={auth} />
      </>
    );
  }
  return (
    <div className="da-form">
      <FormError error={outcome} />
      <button type="button" className="da-button da-button-primary" onClick={confirm} disabled={pending || !hydrated}>
        {pending ? "Please wait…" : "Confirm my email address"}
      </button>
    </div>
  );
}
