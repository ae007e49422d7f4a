"use client";

import { useEffect, useRef, useState } from "react";
import { recoveryCodesText } from "@/lib/domain-auth/second-factor";
import { useSession } from "@/lib/domain-auth/session";

/** Props of {@link RecoveryCodes}. */
export interface RecoveryCodesProps {
  readonly codes: readonly string[];
  /** The label of the button that leaves the codes: they are never shown again. */
  readonly doneLabel: string;
  readonly onDone: () => void;
}

/**
 * A new set of recovery codes, shown this once: to copy, or to download as a text file. The list
 * takes the focus when it appears, so a screen reader reads it and a keyboard user starts there.
 */
export function RecoveryCodes({ codes, doneLabel, onDone }: RecoveryCodesProps) {
  const region = useRef<HTMLElement>(null);
  const [status, setStatus] = useState("");
  const session = useSession();
  const text = recoveryCodesText(codes, { account: session.status === "signed-in" ? session.user.email : undefined });

  useEffect(() => region.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus("The recovery codes are copied.");
    } catch {
      setStatus("This browser did not let the page copy: select the codes and copy them yourself.");
    }
  }

  return (
    <section className="da-recovery" ref={region} tabIndex={-1} aria-label="Your recovery codes">
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
      <p className="da-status" role="status">
        {status}
      </p>
      <div className="da-actions">
        <button type="button" className="da-button" onClick={copy}>
          Copy codes
        </button>
        <a className="da-button" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="recovery-codes.txt">
          Download as .txt
        </a>
        <button type="button" className="da-button da-button-primary" onClick={onDone}>
          {doneLabel}
        </button>
      </div>
    </section>
  );
}
