"use client";

import { recoveryCodesText } from "@/lib/domain-auth/second-factor";
import { useSession } from "@/lib/domain-auth/session";
import { ShownOnce } from "./shown-once";

/** Props of {@link RecoveryCodes}. */
export interface RecoveryCodesProps {
  readonly codes: readonly string[];
  /** The label of the button that leaves the codes: they are never shown again. */
  readonly doneLabel: string;
  readonly onDone: () => void;
}

/**
 * A new set of recovery codes, shown this once: to copy, or to download as a text file.
 */
export function RecoveryCodes({ codes, doneLabel, onDone }: RecoveryCodesProps) {
  const session = useSession();
  const text = recoveryCodesText(codes, { account: session.status === "signed-in" ? session.user.email : undefined });
  return (
    <ShownOnce
      label="Your recovery codes"
      copyText={text}
      copyLabel="Copy codes"
      said={{
        copied: "The recovery codes are copied.",
        refused: "This browser did not let the page copy: select the codes and copy them yourself.",
      }}
      actions={
        <a className="da-button" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="recovery-codes.txt">
          Download as .txt
        </a>
      }
      doneLabel={doneLabel}
      onDone={onDone}
    >
      <p>
        <strong>Save your recovery codes.</strong> Each one signs you in once if you lose your authenticator app. They are shown only now:
        keep them somewhere safe, such as a password manager.
      </p>
      <ol className="da-recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
    </ShownOnce>
  );
}
