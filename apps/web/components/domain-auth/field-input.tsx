import { useId } from "react";
import type { FieldView } from "@/lib/domain-auth/domain-view";
import { initialInputValue } from "@/lib/domain-auth/form-values";
import { fieldLabel } from "@/lib/domain-auth/format";
import { TextField } from "./text-field";

/** Props of {@link FieldInput}. */
export interface FieldInputProps {
  readonly field: FieldView;
  /** The record being edited; absent on create (the field's default is shown). */
  readonly record?: Record<string, unknown> | undefined;
  readonly error?: string | undefined;
}

const INPUT_TYPES: Partial<Record<FieldView["type"], string>> = {
  integer: "number",
  number: "number",
  boolean: "checkbox",
  datetime: "datetime-local",
};

function TextAreaField({ field, record, error }: FieldInputProps) {
  const id = useId();
  return (
    <div className="da-field">
      <label htmlFor={id}>{fieldLabel(field.name)}</label>
      <textarea
        id={id}
        name={field.name}
        rows={4}
        required={field.required}
        maxLength={field.maxLength}
        defaultValue={String(initialInputValue(field, record))}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} className="da-field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A choice among an `enum` field's values; an optional field may be left empty. */
function SelectField({ field, record, error }: FieldInputProps) {
  const id = useId();
  return (
    <div className="da-field">
      <label htmlFor={id}>{fieldLabel(field.name)}</label>
      <select
        id={id}
        name={field.name}
        required={field.required}
        defaultValue={String(initialInputValue(field, record))}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {field.required && field.default !== undefined ? null : <option value="">—</option>}
        {(field.values ?? []).map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="da-field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The input for one declared field, chosen by its type, with the field's limits as attributes. */
export function FieldInput(props: FieldInputProps) {
  const { field, record, error } = props;
  if (field.type === "text") return <TextAreaField {...props} />;
  if (field.type === "enum") return <SelectField {...props} />;
  const initial = initialInputValue(field, record);
  const type = INPUT_TYPES[field.type] ?? "text";
  return (
    <TextField
      label={fieldLabel(field.name)}
      name={field.name}
      type={type}
      error={error}
      hint={field.type === "ref" ? `The id of a ${field.to ?? "record"}` : undefined}
      required={field.required && field.type !== "boolean"}
      maxLength={field.maxLength}
      min={field.min}
      max={field.max}
      step={field.type === "integer" ? 1 : field.type === "number" ? "any" : undefined}
      {...(typeof initial === "boolean" ? { defaultChecked: initial } : { defaultValue: initial })}
    />
  );
}
