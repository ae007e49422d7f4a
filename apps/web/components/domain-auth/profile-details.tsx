"use client";

import type { ErrorBody } from "@domain-auth/core/policy";
import { useEffect, useRef, useState } from "react";
import type { FieldView } from "@/lib/domain-auth/domain-view";
import { readFieldValues } from "@/lib/domain-auth/form-values";
import { formatValue } from "@/lib/domain-auth/format";
import { type OwnAccountAuth, saveOwnFields } from "@/lib/domain-auth/own-account";
import type { UserProfile } from "@/lib/domain-auth/profile";
import { sessionClient } from "@/lib/domain-auth/session";
import { FieldInput } from "./field-input";
import { OwnAccountForm } from "./own-account-form";

/** Props of {@link ProfileDetails}. */
export interface ProfileDetailsProps {
  readonly auth: OwnAccountAuth;
  readonly user: UserProfile;
  /** What the card lists: each row's label and value. */
  readonly rows: readonly (readonly [string, unknown])[];
  /** The declared fields the user may change on their own record (`ownEditableFields`); none: nothing to edit. */
  readonly fields: readonly FieldView[];
}

/**
 * The profile card's list of the user's details and, where they may change some of them, "Edit
 * details": a form of those fields, saved with `PATCH /api/<auth>/<own id>` (no current password: no
 * credential changes), after which every tab shows the new values.
 */
export function ProfileDetails({ auth, user, rows, fields }: ProfileDetailsProps) {
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState("");
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  // Closing the form gives the focus back to "Edit details".
  useEffect(() => {
    if (!editing && wasEditing.current) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  async function save(form: FormData): Promise<ErrorBody | null> {
    const result = await saveOwnFields(sessionClient(), auth, user, readFieldValues(fields, form, "update"));
    if (!result.ok) return result.error;
    setEditing(false);
    setStatus("Your details have been saved.");
    return null;
  }

  // Kept in the page while the form is open, so that screen readers announce what it says after.
  const said = (
    <p className="da-status" role="status">
      {status}
    </p>
  );
  if (editing) {
    return (
      <>
        {said}
        <OwnAccountForm
          title="Edit your details"
          inputs={fields.map((field) => field.name)}
          submitLabel="Save details"
          onSubmit={save}
          onCancel={() => setEditing(false)}
        >
          {(errors) => fields.map((field) => <FieldInput key={field.name} field={field} record={user} error={errors[field.name]} />)}
        </OwnAccountForm>
      </>
    );
  }
  return (
    <>
      {said}
      <dl className="da-details">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{formatValue(value)}</dd>
          </div>
        ))}
      </dl>
      {fields.length > 0 ? (
        <div className="da-actions">
          <button
            type="button"
            ref={editButton}
            className="da-button"
            onClick={() => {
              setStatus("");
              setEditing(true);
            }}
          >
            Edit details
          </button>
        </div>
      ) : null}
    </>
  );
}
