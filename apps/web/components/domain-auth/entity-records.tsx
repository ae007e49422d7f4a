"use client";

import { type AuthorizeOptions, type Caller, type Membership, mayPerform } from "@domain-auth/core/policy";
import Link from "next/link";
import { useState } from "react";
import type { EntityView } from "@/lib/domain-auth/domain-view";
import { fieldLabel } from "@/lib/domain-auth/format";
import { usePagedList } from "@/lib/domain-auth/paged-list";
import { useRecordActions } from "@/lib/domain-auth/record-actions";
import {
  type EntityRecord,
  type RecordLinks,
  type ReferenceTarget,
  recordLabel,
  useReferenceLabels,
} from "@/lib/domain-auth/record-labels";
import { FormError } from "./form-error";
import { Pager } from "./pager";
import { ReauthPrompt } from "./reauth-prompt";
import { RecordForm } from "./record-form";
import { RecordValue } from "./record-value";
import { RecordsToolbar, SortableHeader, type SortOrder } from "./records-toolbar";

/** Whether the caller may create records, or update or delete the one given. */
type MayPerform = (operation: "create" | "update" | "delete", record?: EntityRecord) => boolean;

/** Props of {@link EntityRecords}. */
export interface EntityRecordsProps {
  readonly entity: EntityView;
  /** Who is asking, for the permission rules; `null` when anonymous. */
  readonly caller: Caller;
  /** How the permission rules apply: `{ open: true }` under `auth.type: none`. */
  readonly authorization?: AuthorizeOptions;
  /**
   * A tenant entity's records are one organization's: its id (the records of
   * `/api/orgs/<id>/<segment>`) and the caller's membership of it (`null`: the setup role's support access).
   */
  readonly organization?: EntityOrganization;
  /** Record pages and reference labels (the admin's); without, names are not links and references show ids. */
  readonly links?: RecordLinks;
  /** The heading's level: 1 on a page of its own, 2 (the default) as a section of a page. */
  readonly headingLevel?: 1 | 2;
  /** The heading's text; the entity's name by default. */
  readonly title?: string;
}

/** The organization whose records {@link EntityRecords} shows. */
export interface EntityOrganization {
  readonly id: string;
  readonly membership: Membership | null;
}

/**
 * The table's columns: the entity's fields but long text, then its owner field, then when it was
 * created. The first is the record's name (its first string field, else its id), linked to its page.
 */
function recordColumns(entity: EntityView): string[] {
  const names = entity.fields.filter((field) => field.type !== "text").map((field) => field.name);
  const named = entity.fields.some((field) => field.type === "string");
  return [...(named ? [] : ["id"]), ...names, ...(entity.ownerField ? [entity.ownerField] : []), "createdAt"];
}

/** Which columns sort: every one but long text (and those are not shown) and the id. */
function sortable(entity: EntityView, column: string): boolean {
  return (
    column === "createdAt" || column === entity.ownerField || entity.fields.some((field) => field.name === column && field.type !== "text")
  );
}

/** The column that names a record: its first string field, else its id. */
function nameColumn(entity: EntityView): string {
  return entity.fields.find((field) => field.type === "string")?.name ?? "id";
}

/** Props of {@link RecordRow}. */
interface RecordRowProps {
  readonly entity: EntityView;
  readonly record: EntityRecord;
  readonly columns: readonly string[];
  readonly links: RecordLinks | undefined;
  readonly labels: ReadonlyMap<string, string>;
  readonly actions: React.ReactNode;
}

/** A record's name, the row's header: linked to the record's page where there is one. */
function RecordName({
  record,
  name,
  links,
}: {
  readonly record: EntityRecord;
  readonly name: string;
  readonly links: RecordLinks | undefined;
}) {
  return (
    <th scope="row" className="da-record-name">
      {links ? (
        <Link href={links.record(record.id)} className="da-cell-text" title={name}>
          {name}
        </Link>
      ) : (
        <span className="da-cell-text" title={name}>
          {name}
        </span>
      )}
    </th>
  );
}

/** One record: its name (linked to its page), each other column's value, its actions. */
function RecordRow({ entity, record, columns, links, labels, actions }: RecordRowProps) {
  const named = nameColumn(entity);
  return (
    <tr>
      {columns.map((column) => {
        if (column === named) {
          const value = record[column];
          return (
            <RecordName key={column} record={record} name={typeof value === "string" && value !== "" ? value : record.id} links={links} />
          );
        }
        const target = links?.references.get(column);
        const value = record[column];
        const reference =
          target && typeof value === "string"
            ? { target, label: labels.get(`${column}:${value}`), href: links?.reference(target, value) ?? null }
            : undefined;
        return (
          <td key={column}>
            <RecordValue field={entity.fields.find((field) => field.name === column)} value={value} reference={reference} truncate />
          </td>
        );
      })}
      <td>
        <div className="da-actions da-row-actions">{actions}</div>
      </td>
    </tr>
  );
}

/** Props of {@link RecordButtons}. */
interface RecordButtonsProps {
  readonly name: string;
  readonly mayUpdate: boolean;
  readonly mayDelete: boolean;
  readonly confirming: boolean;
  readonly onEdit: () => void;
  readonly onDelete: () => void;
  readonly onConfirm: () => void;
  readonly onKeep: () => void;
}

/** One record's Edit and Delete buttons, or Delete and Keep while its delete waits for confirmation. */
function RecordButtons({ name, mayUpdate, mayDelete, confirming, onEdit, onDelete, onConfirm, onKeep }: RecordButtonsProps) {
  if (confirming) {
    return (
      <>
        <button type="button" className="da-button da-button-danger" onClick={onConfirm}>
          Confirm delete
        </button>
        <button type="button" className="da-button" onClick={onKeep}>
          Keep
        </button>
      </>
    );
  }
  return (
    <>
      {mayUpdate ? (
        <button type="button" className="da-button" aria-label={`Edit ${name}`} onClick={onEdit}>
          Edit
        </button>
      ) : null}
      {mayDelete ? (
        <button type="button" className="da-button da-button-danger" aria-label={`Delete ${name}`} onClick={onDelete}>
          Delete
        </button>
      ) : null}
    </>
  );
}

/** The table's header row: a sorting button on each column that sorts. */
function RecordsHead({
  entity,
  columns,
  sort,
  onSort,
}: {
  readonly entity: EntityView;
  readonly columns: readonly string[];
  readonly sort: SortOrder | null;
  readonly onSort: (sort: SortOrder | null) => void;
}) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          sortable(entity, column) ? (
            <SortableHeader key={column} column={column} label={fieldLabel(column)} sort={sort} onSort={onSort} />
          ) : (
            <th scope="col" key={column}>
              {fieldLabel(column)}
            </th>
          ),
        )}
        <th scope="col">Actions</th>
      </tr>
    </thead>
  );
}

/**
 * One entity's records: search (its string fields), sort by a column, a page at a time after each
 * page's cursor, with the create, edit and delete actions the caller is allowed.
 */
export function EntityRecords({ entity, caller, authorization, organization, links, headingLevel = 2, title }: EntityRecordsProps) {
  const organizationId = organization?.id;
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<SortOrder | null>(null);
  const list = usePagedList<EntityRecord>(entity.segment, organizationId, {
    ...(search ? { q: search } : {}),
    ...(sort ? { sort: `${sort.direction === "descending" ? "-" : ""}${sort.column}` } : {}),
  });
  const [editing, setEditing] = useState<EntityRecord | "new" | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const actions = useRecordActions(entity, organizationId, () => {
    setEditing(null);
    setConfirming(null);
    list.reload();
  });
  const labels = useReferenceLabels(links?.references ?? NO_REFERENCES, list.items, links?.reader ?? "");
  const may: MayPerform = (operation, record) =>
    mayPerform(entity, operation, caller, { ...authorization, ...(organization ? { membership: organization.membership } : {}), record });
  const headingId = `entity-${entity.segment}`;
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const columns = recordColumns(entity);
  const searchable = entity.fields.some((field) => field.type === "string");

  return (
    <section className={headingLevel === 1 ? "da-records" : "da-card da-records"} aria-labelledby={headingId}>
      <div className="da-section-head">
        <Heading id={headingId}>{title ?? entity.name}</Heading>
        {may("create") && editing === null ? (
          <button type="button" className="da-button da-button-primary" onClick={() => setEditing("new")}>
            New {entity.name}
          </button>
        ) : null}
      </div>
      <p className="da-status" role="status">
        {actions.status}
      </p>
      <FormError error={actions.failure ?? list.error} />
      {actions.retry ? (
        <ReauthPrompt action={`save this ${entity.name}`} onPassword={actions.retry} onCancel={actions.cancelRetry} />
      ) : null}
      {editing !== null ? (
        <RecordForm
          key={editing === "new" ? "new" : editing.id}
          title={editing === "new" ? `New ${entity.name}` : `Edit ${entity.name}`}
          fields={entity.fields}
          {...(editing === "new" ? {} : { record: editing })}
          submitLabel={editing === "new" ? "Create" : "Save"}
          onSubmit={(body) => actions.save(editing === "new" ? null : editing, body)}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      {searchable ? <RecordsToolbar label={entity.name} onSearch={setSearch} /> : null}
      {list.error ? null : (
        <div className="da-table-wrap">
          <table className="da-records-table">
            <caption className="da-visually-hidden">{`${entity.name} records`}</caption>
            <RecordsHead entity={entity} columns={columns} sort={sort} onSort={setSort} />
            <tbody>
              {list.items.length === 0 ? (
                <tr>
                  <td colSpan={columns.length + 1}>
                    {list.loading ? "Loading…" : search ? `No ${entity.name} records match “${search}”.` : `No ${entity.name} records yet.`}
                  </td>
                </tr>
              ) : null}
              {list.items.map((record) => (
                <RecordRow
                  key={record.id}
                  entity={entity}
                  record={record}
                  columns={columns}
                  links={links}
                  labels={labels}
                  actions={
                    <RecordButtons
                      name={recordLabel(entity, record)}
                      mayUpdate={may("update", record)}
                      mayDelete={may("delete", record)}
                      confirming={confirming === record.id}
                      onEdit={() => setEditing(record)}
                      onDelete={() => setConfirming(record.id)}
                      onConfirm={() => actions.remove(record)}
                      onKeep={() => setConfirming(null)}
                    />
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label={entity.name} list={list} />
    </section>
  );
}

const NO_REFERENCES: ReadonlyMap<string, ReferenceTarget> = new Map();
