"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { useId, useState } from "react";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import { passkeySecondStep } from "@/lib/domain-auth/passkeys";
import { type SecondStep, verifySecondFactor } from "@/lib/domain-auth/second-factor";
import { sessionClient } from "@/lib/domain-auth/session";
import { describeSignInError } from "@/lib/domain-auth/sign-in";
import { FormError } from "./form-error";
import { RECOVERY_CODE_FIELD, SecretFieldsForm, TOTP_CODE_FIELD } from "./secret-fields-form";

/** Props of {@link SecondFactorForm}. */
export interface SecondFactorFormProps {
  readonly auth: Pick<AuthView, "segment">;
  /** What the password answered: the `mfaToken` and the methods it may be finished with. */
  readonly challenge: Extract<SecondStep, { kind: "second-factor" }>;
  /** Signed in: the session cookies are set and the tab knows the user. */
  readonly onSignedIn: () => void;
  /** The `mfaToken` expired or was spent: back to the password, with the server's reason. */
  readonly onExpired: (message: string) => void;
}

/** Where the second step stands: which factor the user presents. */
type Method = "code" | "recovery" | "passkey";

/**
 * The second step of a sign-in (docs/mfa.md): a code of the authenticator app, one of the
 * recovery codes ("Use a recovery code instead"), or a passkey ("Use a passkey"), as the user's
 * methods allow. A wrong code is shown at its input; a throttled one says how long to wait.
 */
export function SecondFactorForm({ auth, challenge, onSignedIn, onExpired }: SecondFactorFormProps) {
  const headingId = useId();
  const { methods } = challenge;
  const [method, setMethod] = useState<Method>(methods.includes("totp") ? "code" : "passkey");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const field = method === "recovery" ? RECOVERY_CODE_FIELD : TOTP_CODE_FIELD;

  /** The end of an attempt: signed in, back to the password, or the failure to show (`null`: none). */
  function settle(result: Awaited<ReturnType<typeof passkeySecondStep>>): ErrorBody | null {
    if (!result) {
      onSignedIn();
      return null;
    }
    if ("prompt" in result) return { code: "BAD_REQUEST", message: result.message };
    if (result.error.code === "INVALID_MFA_TOKEN") {
      onExpired(result.error.message);
      return null;
    }
    // The code is what was wrong: say so beside its input.
    if (result.error.code === "INVALID_MFA_CODE")
      return { ...result.error, issues: [{ path: [field.name], message: result.error.message }] };
    return describeSignInError(result);
  }

  async function verify(values: Readonly<Record<string, string>>): Promise<ErrorBody | null> {
    const value = values[field.name] ?? "";
    const proof = method === "recovery" ? { recoveryCode: value } : { code: value };
    return settle(await verifySecondFactor(sessionClient(), auth, challenge.mfaToken, proof));
  }

  async function usePasskey() {
    setBusy(true);
    setFailure(null);
    const error = settle(await passkeySecondStep(sessionClient(), auth, challenge.mfaToken));
    setBusy(false);
    setFailure(error?.message ?? null);
  }

  const switches = (
    [
      ["code", "Use your authenticator app instead", methods.includes("totp")],
      ["recovery", "Use a recovery code instead", methods.includes("recovery")],
      ["passkey", "Use a passkey instead", methods.includes("passkey")],
    ] as const
  ).filter(([target, , offered]) => offered && target !== method);

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Two-step verification</h2>
      {method === "passkey" ? (
        <>
          <p>Confirm it is you with one of your passkeys: your device will ask for its screen lock.</p>
          <FormError error={failure} />
          <div className="da-actions">
            <button type="button" className="da-button da-button-primary" onClick={usePasskey} disabled={busy || !hydrated}>
              {busy ? "Waiting for your device…" : "Use a passkey"}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>
            {method === "recovery"
              ? "Enter one of the recovery codes you saved when you turned on two-step verification."
              : "Open your authenticator app and enter the code it shows for this account."}
          </p>
          <SecretFieldsForm key={field.name} fields={[field]} submitLabel="Verify" onSubmit={verify} />
        </>
      )}
      {switches.map(([target, label]) => (
        <p key={target}>
          <button type="button" className="da-button" onClick={() => setMethod(target)}>
            {label}
          </button>
        </p>
      ))}
    </section>
  );
}
