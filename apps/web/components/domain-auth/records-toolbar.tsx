"use client";

import { type ReactNode, useEffect, useId, useState } from "react";

/** A table's order: a column, up or down. */
export interface SortOrder {
  readonly column: string;
  readonly direction: "ascending" | "descending";
}

/** How long typing pauses before a search is sent. */
const SEARCH_PAUSE_MS = 250;

/**
 * The search box above a table: the list follows what is typed once typing pauses (Enter at once),
 * with `children` (filters) beside it.
 */
export function RecordsToolbar({
  label,
  onSearch,
  placeholder,
  children,
}: {
  /** What is searched, for the box's label: "Search Post records". */
  readonly label: string;
  readonly onSearch: (text: string) => void;
  readonly placeholder?: string;
  readonly children?: ReactNode;
}) {
  const inputId = useId();
  const [text, setText] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <search className="da-toolbar">
      <form
        className="da-toolbar-search"
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(text.trim());
        }}
      >
        <label htmlFor={inputId} className="da-visually-hidden">
          Search {label} records
        </label>
        <input
          id={inputId}
          type="search"
          value={text}
          maxLength={100}
          placeholder={placeholder ?? "Search…"}
          onChange={(event) => setText(event.target.value)}
        />
      </form>
      {children}
    </search>
  );
}

/**
 * A column's header that sorts the table by it: first ascending, then descending, then back to the
 * list's own order; `aria-sort` tells which.
 */
export function SortableHeader({
  column,
  label,
  sort,
  onSort,
}: {
  readonly column: string;
  readonly label: string;
  readonly sort: SortOrder | null;
  readonly onSort: (sort: SortOrder | null) => void;
}) {
  const direction = sort?.column === column ? sort.direction : null;
  const next: SortOrder | null =
    direction === null ? { column, direction: "ascending" } : direction === "ascending" ? { column, direction: "descending" } : null;
  return (
    <th scope="col" aria-sort={direction ?? "none"}>
      <button type="button" className="da-sort" onClick={() => onSort(next)}>
        {label}
        <span aria-hidden="true" className="da-sort-mark">
          {direction === "ascending" ? "▲" : direction === "descending" ? "▼" : "↕"}
        </span>
      </button>
    </th>
  );
}
