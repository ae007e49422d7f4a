"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import type { ApiFailure } from "@/lib/domain-auth/api-request";
import { disableTotp, regenerateRecoveryCodes, type SecondFactorAuth, type TwoStepStatus } from "@/lib/domain-auth/second-factor";
import { sessionClient } from "@/lib/domain-auth/session";
import { describeSignInError } from "@/lib/domain-auth/sign-in";
import { RecoveryCodes } from "./recovery-codes";
import { CURRENT_PASSWORD_FIELD, SecretFieldsForm, TOTP_CODE_FIELD } from "./secret-fields-form";
import { TotpSetup } from "./totp-setup";

/** Props of {@link TwoStepSection}. */
export interface TwoStepSectionProps {
  readonly auth: SecondFactorAuth;
  /** The signed-in user. */
  readonly userId: string;
  /** What the server rendered the page with (`readTwoStepStatus`); of another user, or `null`, it is asked again. */
  readonly rendered: TwoStepStatus | null;
  /** Turning the factor on or off signed out the user's other sessions. */
  readonly onOtherSessionsEnded: () => void;
}

type View =
  | { readonly kind: "status" }
  | { readonly kind: "turning-on" }
  | { readonly kind: "turning-off" }
  | { readonly kind: "new-codes" }
  | { readonly kind: "codes"; readonly codes: readonly string[] };

const STATUS: View = { kind: "status" };

/** What the section shows in each view, and what its buttons and forms do. */
interface TwoStepBodyProps {
  readonly auth: SecondFactorAuth;
  readonly enabled: boolean | null;
  readonly view: View;
  readonly show: (view: View) => void;
  readonly turnedOn: (codes: readonly string[]) => void;
  readonly turnOff: (values: Readonly<Record<string, string>>) => Promise<ErrorBody | null>;
  readonly renewCodes: (values: Readonly<Record<string, string>>) => Promise<ErrorBody | null>;
}

function TwoStepBody({ auth, enabled, view, show, turnedOn, turnOff, renewCodes }: TwoStepBodyProps) {
  const back = () => show(STATUS);
  if (view.kind === "turning-on") return <TotpSetup auth={auth} onConfirmed={turnedOn} onCancel={back} />;
  if (view.kind === "codes") return <RecoveryCodes codes={view.codes} doneLabel="Done" onDone={back} />;
  if (view.kind === "turning-off") {
    return (
      <>
        <p>Enter your password and a current code of your authenticator app to turn two-step verification off.</p>
        <SecretFieldsForm fields={[CURRENT_PASSWORD_FIELD, TOTP_CODE_FIELD]} submitLabel="Turn off" onSubmit={turnOff} onCancel={back} />
      </>
    );
  }
  if (view.kind === "new-codes") {
    return (
      <>
        <p>A new set of ten recovery codes replaces the old one, whose codes then stop working.</p>
        <SecretFieldsForm fields={[CURRENT_PASSWORD_FIELD]} submitLabel="Create new codes" onSubmit={renewCodes} onCancel={back} />
      </>
    );
  }
  if (enabled === null) return <p className="da-field-hint">Loading…</p>;
  return (
    <>
      <dl className="da-details">
        <div>
          <dt>Status</dt>
          <dd>{enabled ? "On" : "Off"}</dd>
        </div>
      </dl>
      <p className="da-field-hint">
        {enabled
          ? "After your password, signing in asks for a code of your authenticator app, or one of your recovery codes."
          : "Turn it on to be asked, after your password, for a code of an authenticator app on your phone."}
      </p>
      {enabled ? (
        <div className="da-actions">
          <button type="button" className="da-button" onClick={() => show({ kind: "new-codes" })}>
            New recovery codes
          </button>
          <button type="button" className="da-button da-button-danger" onClick={() => show({ kind: "turning-off" })}>
            Turn off
          </button>
        </div>
      ) : (
        <button type="button" className="da-button da-button-primary" onClick={() => show({ kind: "turning-on" })}>
          Turn on two-step verification
        </button>
      )}
    </>
  );
}

/**
 * The profile's "Two-step verification" (docs/mfa.md): whether it is on, turning it on (QR code,
 * key, a code to confirm, then the recovery codes, once), turning it off (password and a code), and
 * a new set of recovery codes (password). Turning it on or off signs out the user's other devices.
 */
export function TwoStepSection({ auth, userId, rendered, onOtherSessionsEnded }: TwoStepSectionProps) {
  const router = useRouter();
  const headingId = useId();
  const [changed, setChanged] = useState<boolean | null>(null);
  const [view, setView] = useState<View>(STATUS);
  const [status, setStatus] = useState("");
  const enabled = changed ?? (rendered?.userId === userId ? rendered.enabled : null);

  // The tab signed in as someone the page was not rendered for: the server knows their factors.
  useEffect(() => {
    if (enabled === null) router.refresh();
  }, [enabled, router]);

  const show = (next: View) => {
    setStatus("");
    setView(next);
  };
  const changedTo = (on: boolean, message: string) => {
    setChanged(on);
    setStatus(message);
    onOtherSessionsEnded();
  };
  const refused = (result: ApiFailure, whileOff: string): ErrorBody => {
    if (result.error.code === whileOff) setChanged(false);
    return describeSignInError(result);
  };

  async function turnOff(values: Readonly<Record<string, string>>): Promise<ErrorBody | null> {
    const body = { currentPassword: values.currentPassword ?? "", code: values.code ?? "" };
    const result = await disableTotp(sessionClient(), auth, body);
    if (!result.ok) return refused(result, "NOT_FOUND");
    setView(STATUS);
    changedTo(false, "Two-step verification is off. Your other devices have been signed out.");
    return null;
  }

  async function renewCodes(values: Readonly<Record<string, string>>): Promise<ErrorBody | null> {
    const result = await regenerateRecoveryCodes(sessionClient(), auth, values.currentPassword ?? "");
    if (!result.ok) return refused(result, "CONFLICT");
    show({ kind: "codes", codes: result.data.recoveryCodes });
    return null;
  }

  const turnedOn = (codes: readonly string[]) => {
    setView({ kind: "codes", codes });
    changedTo(true, "Two-step verification is on. Your other devices have been signed out.");
  };

  return (
    <section aria-labelledby={headingId} className="da-card">
      <h2 id={headingId}>Two-step verification</h2>
      <p className="da-status" role="status">
        {status}
      </p>
      <TwoStepBody auth={auth} enabled={enabled} view={view} show={show} turnedOn={turnedOn} turnOff={turnOff} renewCodes={renewCodes} />
    </section>
  );
}
