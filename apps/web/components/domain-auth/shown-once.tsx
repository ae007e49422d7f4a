"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";

/** Props of {@link ShownOnce}. */
export interface ShownOnceProps {
  /** The region's name, as a screen reader says it. */
  readonly label: string;
  /** What "Copy" puts on the clipboard. */
  readonly copyText: string;
  /** The copy button's label ("Copy key"). */
  readonly copyLabel: string;
  /** The status line's sentences: once copied, and when the browser refuses (then the text is copied by hand). */
  readonly said: { readonly copied: string; readonly refused: string };
  /** Buttons or links beside "Copy", before "Done". */
  readonly actions?: ReactNode;
  readonly doneLabel: string;
  readonly onDone: () => void;
  readonly children: ReactNode;
}

/**
 * A secret the server answers only once (a new API key, recovery codes), to copy before leaving:
 * the region takes the focus when it appears, so a screen reader reads it and a keyboard user
 * starts there, and a status line says whether the copy worked.
 */
export function ShownOnce({ label, copyText, copyLabel, said, actions, doneLabel, onDone, children }: ShownOnceProps) {
  const region = useRef<HTMLElement>(null);
  const [status, setStatus] = useState("");

  useEffect(() => region.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(copyText);
      setStatus(said.copied);
    } catch {
      setStatus(said.refused);
    }
  }

  return (
    <section className="da-recovery" ref={region} tabIndex={-1} aria-label={label}>
      {children}
      <p className="da-status" role="status">
        {status}
      </p>
      <div className="da-actions">
        <button type="button" className="da-button" onClick={copy}>
          {copyLabel}
        </button>
        {actions}
        <button type="button" className="da-button da-button-primary" onClick={onDone}>
          {doneLabel}
        </button>
      </div>
    </section>
  );
}
