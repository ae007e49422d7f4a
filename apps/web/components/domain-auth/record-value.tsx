"use client";

import Link from "next/link";
import type { FieldView } from "@/lib/domain-auth/domain-view";
import type { ReferenceTarget } from "@/lib/domain-auth/record-labels";

/** How one value of a record reads: in a table's cell (`truncate`: one line, the whole on hover) or on the record's page. */
export interface RecordValueProps {
  /** The field's declaration; `undefined` for `createdAt`, `updatedAt` and the owner field. */
  readonly field: Pick<FieldView, "type"> | undefined;
  readonly value: unknown;
  /** Where a reference points, with its label when the reader may read it. */
  readonly reference?: { readonly target: ReferenceTarget; readonly label: string | undefined; readonly href: string | null };
  readonly truncate?: boolean;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A date-time in the reader's own format (in a table, the day, with the time on hover), the instant itself in the element. */
function DateTime({ value, short }: { readonly value: string; readonly short: boolean }) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <>{value}</>;
  const whole = date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return (
    <time dateTime={date.toISOString()} title={short ? whole : undefined} className="da-nowrap">
      {short ? date.toLocaleDateString(undefined, { dateStyle: "medium" }) : whole}
    </time>
  );
}

/** A short form of an id for a reference without a label: its first 8 characters. */
function shortId(id: string): string {
  return id.length > 10 ? `${id.slice(0, 8)}…` : id;
}

/**
 * One value as the admin shows it: an em dash for none, booleans as marks (their word for screen
 * readers), enum values as badges, date-times in the reader's format, references by their label
 * (a user's e-mail, a record's first text) and linked where the reader may open them, long text on
 * one line with the whole of it on hover and on the record's page.
 */
export function RecordValue({ field, value, reference, truncate = false }: RecordValueProps) {
  if (value === null || value === undefined || value === "") {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="da-visually-hidden">None</span>
      </>
    );
  }
  if (typeof value === "boolean") {
    return (
      <span className={value ? "da-mark da-mark-yes" : "da-mark"}>
        <span aria-hidden="true">{value ? "✓" : "✗"}</span>
        <span className="da-visually-hidden">{value ? "Yes" : "No"}</span>
      </span>
    );
  }
  if (reference && typeof value === "string") {
    const text = reference.label ?? shortId(value);
    const title = reference.label ? `${reference.label} (${value})` : value;
    return reference.href ? (
      <Link href={reference.href} className={truncate ? "da-cell-text" : undefined} title={title}>
        {text}
      </Link>
    ) : (
      <span className={truncate ? "da-cell-text" : undefined} title={title}>
        {text}
      </span>
    );
  }
  if (field?.type === "enum") return <span className="da-badge">{String(value)}</span>;
  if (typeof value === "string" && (field === undefined || field.type === "datetime") && INSTANT.test(value))
    return <DateTime value={value} short={truncate} />;
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  if (!truncate) return <span className="da-value-text">{text}</span>;
  return (
    <span className="da-cell-text" title={text}>
      {text}
    </span>
  );
}
