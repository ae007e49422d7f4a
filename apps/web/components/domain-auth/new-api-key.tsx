"use client";

import type { CreatedApiKey } from "@/lib/domain-auth/api-keys";
import { ShownOnce } from "./shown-once";

/** Props of {@link NewApiKey}. */
export interface NewApiKeyProps {
  readonly created: CreatedApiKey;
  readonly onDone: () => void;
}

/** A new API key, shown this once, to copy: the server keeps only its hash. */
export function NewApiKey({ created, onDone }: NewApiKeyProps) {
  return (
    <ShownOnce
      label={`Your new API key ${created.name}`}
      copyText={created.key}
      copyLabel="Copy key"
      said={{
        copied: "The key is copied.",
        refused: "This browser did not let the page copy: select the key and copy it yourself.",
      }}
      doneLabel="Done"
      onDone={onDone}
    >
      <p>
        <strong>Copy your new API key “{created.name}” now.</strong> It is shown only this once: keep it where your program reads its
        secrets. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      <p>
        <code className="da-api-key" data-testid="new-api-key">
          {created.key}
        </code>
      </p>
    </ShownOnce>
  );
}
