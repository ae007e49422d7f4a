import type { FieldView } from "./domain-view";

/** How empty inputs are sent: left out on create, cleared (`null`) on update. */
export type FormMode = "create" | "update";

function readValue(field: FieldView, raw: string): unknown {
  switch (field.type) {
    case "integer":
    case "number":
      return Number(raw);
    case "datetime": {
      const date = new Date(raw);
      return Number.isNaN(date.getTime()) ? raw : date.toISOString();
    }
    default:
      return raw;
  }
}

/** Turns a form's inputs for `fields` into a JSON body; the API validates it and reports issues. */
export function readFieldValues(fields: readonly FieldView[], form: FormData, mode: FormMode): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.type === "boolean") {
      body[field.name] = form.get(field.name) === "on";
      continue;
    }
    const raw = String(form.get(field.name) ?? "");
    if (raw !== "") body[field.name] = readValue(field, raw);
    else if (mode === "update") body[field.name] = null;
  }
  return body;
}

/** The value an input starts with: the record's value, else the field's default. */
export function initialInputValue(field: FieldView, record?: Record<string, unknown>): string | boolean {
  const value = record ? record[field.name] : field.default;
  if (field.type === "boolean") return value === true;
  if (value === undefined || value === null) return "";
  if (field.type === "datetime" && typeof value === "string") return toLocalInput(value);
  return String(value);
}

function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
