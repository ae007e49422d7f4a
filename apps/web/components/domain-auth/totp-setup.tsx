"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import Image from "next/image";
import { useEffect, useRef, useState } from "react";
import type { ApiFailure } from "@/lib/domain-auth/api-request";
import {
  confirmTotp,
  type EnrolmentOptions,
  groupSecret,
  qrImageSource,
  type SecondFactorAuth,
  startTotp,
  type TotpSecret,
} from "@/lib/domain-auth/second-factor";
import { sessionClient } from "@/lib/domain-auth/session";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { FormActions } from "./form-actions";
import { FormError } from "./form-error";
import { ReauthPrompt } from "./reauth-prompt";
import { SecretFieldsForm, TOTP_CODE_FIELD } from "./secret-fields-form";

/** Props of {@link TotpSetup}. */
export interface TotpSetupProps extends EnrolmentOptions {
  readonly auth: SecondFactorAuth;
  /** TOTP is on: the recovery codes to show, once. */
  readonly onConfirmed: (recoveryCodes: readonly string[]) => void;
  /** Refused 401: the enrolment token died (or the session did). @default the error is shown */
  readonly onRefused?: (failure: ApiFailure) => void;
  /** Shows "Cancel", which calls it. @default no cancel button */
  readonly onCancel?: () => void;
}

type Pending =
  | { readonly status: "loading" }
  | { readonly status: "ready"; readonly secret: TotpSecret }
  | { readonly status: "failed"; readonly error: ErrorBody };

/**
 * Starts a pending secret when mounted, and again after each `retry`: one request each, even when
 * React runs the effect twice (development), so the page never waits on two starts.
 */
function usePendingSecret({ auth, enrolmentToken, onRefused }: TotpSetupProps): {
  pending: Pending;
  retry: () => void;
  /** Shows a secret started outside the effect (after the password was confirmed). */
  accept: (secret: TotpSecret) => void;
} {
  const segment = auth.segment;
  const [attempt, setAttempt] = useState(0);
  const key = JSON.stringify([segment, enrolmentToken === undefined ? "session" : enrolmentToken, attempt]);
  const [accepted, setAccepted] = useState<{ key: string; secret: TotpSecret } | null>(null);
  const started = useLoaded(
    key,
    () => startTotp(sessionClient(), { segment }, { enrolmentToken }),
    (result) => {
      if (!result.ok && result.status === 401) onRefused?.(result);
    },
  );
  const result = started.key === key ? started.value : undefined;
  const pending: Pending =
    accepted?.key === key
      ? { status: "ready", secret: accepted.secret }
      : !result
        ? { status: "loading" }
        : result.ok
          ? { status: "ready", secret: result.data }
          : { status: "failed", error: result.error };
  return {
    pending,
    retry: () => setAttempt((value) => value + 1),
    accept: (secret) => setAccepted({ key, secret }),
  };
}

/**
 * Sets up an authenticator app (docs/mfa.md): a new pending secret as a QR code and as a key to
 * type in, then a code of it turns two-step verification on. The QR code is the server's SVG shown
 * as an image (`data:` URL): never markup of the page. Used by the profile (the signed-in user) and
 * by a required enrolment after the password (`enrolmentToken`).
 */
export function TotpSetup(props: TotpSetupProps) {
  const { auth, enrolmentToken, onConfirmed, onRefused, onCancel } = props;
  const { pending, retry, accept } = usePendingSecret(props);
  const ready = useRef<HTMLDivElement>(null);
  // Where the instructions start, so a screen reader reads them before the code is asked.
  useEffect(() => {
    if (pending.status === "ready") ready.current?.focus();
  }, [pending.status]);

  async function confirm(values: Readonly<Record<string, string>>): Promise<ErrorBody | null> {
    const result = await confirmTotp(sessionClient(), auth, values.code ?? "", { enrolmentToken });
    if (result.ok) {
      onConfirmed(result.data.recoveryCodes);
      return null;
    }
    if (result.status === 401 && onRefused) {
      onRefused(result);
      return null;
    }
    return result.error;
  }

  if (pending.status === "loading") {
    return (
      <p className="da-field-hint" role="status">
        Preparing a new secret…
      </p>
    );
  }
  if (pending.status === "failed" && pending.error.code === "REAUTHENTICATION_REQUIRED") {
    const withPassword = async (currentPassword: string) => {
      const result = await startTotp(sessionClient(), auth, { currentPassword });
      if (!result.ok) return result.error;
      accept(result.data);
      return null;
    };
    return <ReauthPrompt action="set up an authenticator app" onPassword={withPassword} onCancel={onCancel} />;
  }
  if (pending.status === "failed") {
    return (
      <div>
        <FormError error={pending.error} />
        <FormActions onCancel={onCancel}>
          <button type="button" className="da-button" onClick={retry}>
            Try again
          </button>
        </FormActions>
      </div>
    );
  }
  const { secret } = pending;
  return (
    <div className="da-totp-setup" ref={ready} tabIndex={-1}>
      <p>Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy, Bitwarden or another):</p>
      <Image
        unoptimized
        className="da-qr"
        src={qrImageSource(secret.qrSvg)}
        alt="QR code of the new secret, for your authenticator app"
        width={200}
        height={200}
      />
      <p className="da-field-hint">Cannot scan it? Add an account in the app by hand, time-based, with this key:</p>
      <dl className="da-details">
        <div>
          <dt>Setup key</dt>
          <dd>
            <code className="da-secret">{groupSecret(secret.secret)}</code>
          </dd>
        </div>
      </dl>
      <SecretFieldsForm fields={[TOTP_CODE_FIELD]} submitLabel="Turn on" onSubmit={confirm} onCancel={onCancel} autoFocus={false} />
    </div>
  );
}
