import type { ReactNode } from "react";

export interface FormActionsProps {
  /** The form's own buttons, its main one first. */
  readonly children: ReactNode;
  /** Offers Cancel after them when given. */
  readonly onCancel?: (() => void) | undefined;
  /** Cancel waits while the form's request is under way. */
  readonly busy?: boolean;
}

/** The row of a form's buttons: its own, then Cancel where the form can be left. */
export function FormActions({ children, onCancel, busy = false }: FormActionsProps) {
  return (
    <div className="da-actions">
      {children}
      {onCancel ? (
        <button type="button" className="da-button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}
