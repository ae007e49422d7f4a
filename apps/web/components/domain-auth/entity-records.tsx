"use client";

import { type AuthorizeOptions, type Caller, collectionPath, itemPath, type Membership, mayPerform } from "@domain-auth/core/policy";
import { type ReactNode, useState } from "react";
import { callApi } from "@/lib/domain-auth/api";
import type { EntityView } from "@/lib/domain-auth/domain-view";
import { fieldLabel, formatValue } from "@/lib/domain-auth/format";
import { usePagedList } from "@/lib/domain-auth/paged-list";
import { needsReauthentication, type RetryWithPassword } from "@/lib/domain-auth/reauthentication";
import { FormError } from "./form-error";
import { Pager } from "./pager";
import { ReauthPrompt } from "./reauth-prompt";
import { RecordForm } from "./record-form";

type EntityRecord = Record<string, unknown> & { readonly id: string };

/** Whether the caller may create records, or update or delete the one given. */
type MayPerform = (operation: "create" | "update" | "delete", record?: EntityRecord) => boolean;

/** How buttons name a record: its first text value, else its id. */
function recordName(entity: EntityView, record: EntityRecord): string {
  const text = entity.fields.find(
    (field) => field.type === "string" && typeof record[field.name] === "string" && record[field.name] !== "",
  );
  return text ? String(record[text.name]) : record.id;
}

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
}

/** The organization whose records {@link EntityRecords} shows. */
export interface EntityOrganization {
  readonly id: string;
  readonly membership: Membership | null;
}

/** The table's field columns: the entity's fields, then its owner field if it has one. */
function recordColumns(entity: EntityView): string[] {
  const names = entity.fields.map((field) => field.name);
  return entity.ownerField ? [...names, entity.ownerField] : names;
}

/** Props of {@link RecordsTable}. */
interface RecordsTableProps {
  readonly entity: EntityView;
  readonly records: readonly EntityRecord[];
  readonly loading: boolean;
  /** What one record's Actions cell holds. */
  readonly actions: (record: EntityRecord) => ReactNode;
}

/** The page of records on show: the id, each field, and the actions of every record. */
function RecordsTable({ entity, records, loading, actions }: RecordsTableProps) {
  const columns = recordColumns(entity);
  return (
    <div className="da-table-wrap">
      <table>
        <caption className="da-visually-hidden">{`${entity.name} records`}</caption>
        <thead>
          <tr>
            <th scope="col">Id</th>
            {columns.map((name) => (
              <th scope="col" key={name}>
                {fieldLabel(name)}
              </th>
            ))}
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {records.length === 0 ? (
            <tr>
              <td colSpan={columns.length + 2}>{loading ? "Loading…" : `No ${entity.name} records yet.`}</td>
            </tr>
          ) : null}
          {records.map((record) => (
            <tr key={record.id}>
              <td className="da-id-cell" title={record.id}>
                {record.id}
              </td>
              {columns.map((name) => (
                <td key={name}>{formatValue(record[name])}</td>
              ))}
              <td className="da-actions">{actions(record)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Props of {@link RecordActions}. */
interface RecordActionsProps {
  /** How the buttons name the record (see {@link recordName}). */
  readonly name: string;
  readonly mayUpdate: boolean;
  readonly mayDelete: boolean;
  /** Whether the record's delete waits for confirmation. */
  readonly confirming: boolean;
  readonly onEdit: () => void;
  /** Asks for confirmation before deleting. */
  readonly onDelete: () => void;
  readonly onConfirm: () => void;
  readonly onKeep: () => void;
}

/** One record's Edit and Delete buttons, or Confirm delete and Keep while its delete waits for confirmation. */
function RecordActions({ name, mayUpdate, mayDelete, confirming, onEdit, onDelete, onConfirm, onKeep }: RecordActionsProps) {
  return (
    <>
      {mayUpdate ? (
        <button type="button" className="da-button" aria-label={`Edit ${name}`} onClick={onEdit}>
          Edit
        </button>
      ) : null}
      {mayDelete && !confirming ? (
        <button type="button" className="da-button da-button-danger" aria-label={`Delete ${name}`} onClick={onDelete}>
          Delete
        </button>
      ) : null}
      {confirming ? (
        <>
          <button type="button" className="da-button da-button-danger" onClick={onConfirm}>
            Confirm delete
          </button>
          <button type="button" className="da-button" onClick={onKeep}>
            Keep
          </button>
        </>
      ) : null}
    </>
  );
}

/** One entity's records with the create, edit and delete actions the caller is allowed. */
export function EntityRecords({ entity, caller, authorization, organization }: EntityRecordsProps) {
  const organizationId = organization?.id;
  const list = usePagedList<EntityRecord>(entity.segment, organizationId);
  const [editing, setEditing] = useState<EntityRecord | "new" | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [retry, setRetry] = useState<RetryWithPassword | null>(null);
  const may: MayPerform = (operation, record) =>
    mayPerform(entity, operation, caller, { ...authorization, ...(organization ? { membership: organization.membership } : {}), record });
  const headingId = `entity-${entity.segment}`;

  async function save(body: Record<string, unknown>) {
    const target = editing === "new" || editing === null ? null : editing;
    const result = target
      ? await callApi(itemPath(entity, target.id, organizationId), { method: "PATCH", body })
      : await callApi(collectionPath(entity, {}, organizationId), { method: "POST", body });
    // Another user's password, or the setup role, needs a recent sign-in: the same save once the password is confirmed.
    if (needsReauthentication(result) && body.currentPassword === undefined) {
      setRetry(() => (currentPassword: string) => save({ ...body, currentPassword }));
    }
    if (!result.ok && needsReauthentication(result)) return result.error;
    setRetry(null);
    if (!result.ok) {
      if (body.currentPassword !== undefined) setFailure(result.error.message);
      return result.error;
    }
    setEditing(null);
    setStatus(`${entity.name} ${target ? "saved" : "created"}.`);
    list.reload();
    return null;
  }

  async function remove(record: EntityRecord) {
    const result = await callApi(itemPath(entity, record.id, organizationId), { method: "DELETE" });
    setConfirming(null);
    setFailure(result.ok ? null : result.error.message);
    if (result.ok) setStatus(`${entity.name} deleted.`);
    list.reload();
  }

  return (
    <section className="da-card" aria-labelledby={headingId}>
      <div className="da-section-head">
        <h2 id={headingId}>{entity.name}</h2>
        {may("create") && editing === null ? (
          <button type="button" className="da-button da-button-primary" onClick={() => setEditing("new")}>
            New {entity.name}
          </button>
        ) : null}
      </div>
      <p className="da-status" role="status">
        {status}
      </p>
      <FormError error={failure ?? list.error} />
      {retry ? <ReauthPrompt action={`save this ${entity.name}`} onPassword={retry} onCancel={() => setRetry(null)} /> : null}
      {editing !== null ? (
        <RecordForm
          key={editing === "new" ? "new" : editing.id}
          title={editing === "new" ? `New ${entity.name}` : `Edit ${entity.name}`}
          fields={entity.fields}
          {...(editing === "new" ? {} : { record: editing })}
          submitLabel={editing === "new" ? "Create" : "Save"}
          onSubmit={save}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      {list.error ? null : (
        <RecordsTable
          entity={entity}
          records={list.items}
          loading={list.loading}
          actions={(record) => (
            <RecordActions
              name={recordName(entity, record)}
              mayUpdate={may("update", record)}
              mayDelete={may("delete", record)}
              confirming={confirming === record.id}
              onEdit={() => setEditing(record)}
              onDelete={() => setConfirming(record.id)}
              onConfirm={() => remove(record)}
              onKeep={() => setConfirming(null)}
            />
          )}
        />
      )}
      <Pager label={entity.name} list={list} />
    </section>
  );
}
