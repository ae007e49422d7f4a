"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { useId, useState } from "react";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import { type SecondStep, verifySecondFactor } from "@/lib/domain-auth/second-factor";
import { sessionClient } from "@/lib/domain-auth/session";
import { describeSignInError } from "@/lib/domain-auth/sign-in";
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

/**
 * The second step of a sign-in (CONTRACT §15): a code of the authenticator app, or, switched with
 * "Use a recovery code instead", one of the recovery codes. A wrong code is shown at its input; a
 * throttled one says how long to wait.
 */
export function SecondFactorForm({ auth, challenge, onSignedIn, onExpired }: SecondFactorFormProps) {
  const headingId = useId();
  const [useRecovery, setUseRecovery] = useState(false);
  const field = useRecovery ? RECOVERY_CODE_FIELD : TOTP_CODE_FIELD;
  const offersRecovery = challenge.methods.includes("recovery");

  async function verify(values: Readonly<Record<string, string>>): Promise<ErrorBody | null> {
    const value = values[field.name] ?? "";
    const proof = useRecovery ? { recoveryCode: value } : { code: value };
    const failure = await verifySecondFactor(sessionClient(), auth, challenge.mfaToken, proof);
    if (!failure) {
      onSignedIn();
      return null;
    }
    if (failure.error.code === "INVALID_MFA_TOKEN") {
      onExpired(failure.error.message);
      return null;
    }
    // The code is what was wrong: say so beside its input.
    if (failure.error.code === "INVALID_MFA_CODE")
      return { ...failure.error, issues: [{ path: [field.name], message: failure.error.message }] };
    return describeSignInError(failure);
  }

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Two-step verification</h2>
      <p>
        {useRecovery
          ? "Enter one of the recovery codes you saved when you turned on two-step verification."
          : "Open your authenticator app and enter the code it shows for this account."}
      </p>
      <SecretFieldsForm key={field.name} fields={[field]} submitLabel="Verify" onSubmit={verify} />
      {offersRecovery ? (
        <p>
          <button type="button" className="da-button" onClick={() => setUseRecovery((value) => !value)}>
            {useRecovery ? "Use your authenticator app instead" : "Use a recovery code instead"}
          </button>
        </p>
      ) : null}
    </section>
  );
}
