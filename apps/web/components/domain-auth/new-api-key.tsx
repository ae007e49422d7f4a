"use client";

import { useEffect, useRef, useState } from "react";
import type { CreatedApiKey } from "@/lib/domain-auth/api-keys";

/** Props of {@link NewApiKey}. */
export interface NewApiKeyProps {
  readonly created: CreatedApiKey;
  readonly onDone: () => void;
}

/**
 * A new API key, shown this once, to copy: the server keeps only its hash. The region takes the
 * focus when it appears, so a screen reader reads it and a keyboard user starts there.
 */
export function NewApiKey({ created, onDone }: NewApiKeyProps) {
  const region = useRef<HTMLElement>(null);
  const [status, setStatus] = useState("");

  useEffect(() => region.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.key);
      setStatus("The key is copied.");
    } catch {
      setStatus("This browser did not let the page copy: select the key and copy it yourself.");
    }
  }

  return (
    <section className="da-recovery" ref={region} tabIndex={-1} aria-label={`Your new API key ${created.name}`}>
      <p>
        <strong>Copy your new API key “{created.name}” now.</strong> It is shown only this once: keep it where your program reads its
        secrets. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      <p>
        <code className="da-api-key" data-testid="new-api-key">
          {created.key}
        </code>
      </p>
      <p className="da-status" role="status">
        {status}
      </p>
      <div className="da-actions">
        <button type="button" className="da-button" onClick={copy}>
          Copy key
        </button>
        <button type="button" className="da-button da-button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
