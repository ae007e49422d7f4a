"use client";

import { type AuthorizeOptions, type Caller, collectionPath, itemPath, mayPerform } from "@domain-auth/core/policy";
import { useState } from "react";
import { callApi } from "@/lib/domain-auth/api";
import type { EntityView } from "@/lib/domain-auth/domain-view";
import { fieldLabel, formatValue } from "@/lib/domain-auth/format";
import { usePagedList } from "@/lib/domain-auth/paged-list";
import { FormError } from "./form-error";
import { Pager } from "./pager";
import { RecordForm } from "./record-form";

type EntityRecord = Record<string, unknown> & { readonly id: string };

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
  /** The caller's bearer token; `null` under `auth.type: none`. */
  readonly token: string | null;
  /** Who is asking, for the permission rules; `null` when anonymous. */
  readonly caller: Caller;
  /** How the permission rules apply: `{ open: true }` under `auth.type: none`. */
  readonly authorization?: AuthorizeOptions;
}

/** One entity's records with the create, edit and delete actions the caller is allowed. */
export function EntityRecords({ entity, token, caller, authorization }: EntityRecordsProps) {
  const list = usePagedList<EntityRecord>(entity.segment, token);
  const [editing, setEditing] = useState<EntityRecord | "new" | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const may = (operation: "create" | "update" | "delete", record?: EntityRecord) =>
    mayPerform(entity, operation, caller, { ...authorization, record });
  const headingId = `entity-${entity.segment}`;
  const columns = entity.ownerField
    ? [...entity.fields.map((field) => field.name), entity.ownerField]
    : entity.fields.map((field) => field.name);

  async function save(body: Record<string, unknown>) {
    const target = editing === "new" || editing === null ? null : editing;
    const result = target
      ? await callApi(itemPath(entity, target.id), { method: "PATCH", body, token })
      : await callApi(collectionPath(entity), { method: "POST", body, token });
    if (!result.ok) return result.error;
    setEditing(null);
    setStatus(`${entity.name} ${target ? "saved" : "created"}.`);
    list.reload();
    return null;
  }

  async function remove(record: EntityRecord) {
    const result = await callApi(itemPath(entity, record.id), { method: "DELETE", token });
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
              {list.items.length === 0 ? (
                <tr>
                  <td colSpan={columns.length + 2}>{list.loading ? "Loading…" : `No ${entity.name} records yet.`}</td>
                </tr>
              ) : null}
              {list.items.map((record) => (
                <tr key={record.id}>
                  <td className="da-id-cell" title={record.id}>
                    {record.id}
                  </td>
                  {columns.map((name) => (
                    <td key={name}>{formatValue(record[name])}</td>
                  ))}
                  <td className="da-actions">
                    {may("update", record) ? (
                      <button
                        type="button"
                        className="da-button"
                        aria-label={`Edit ${recordName(entity, record)}`}
                        onClick={() => setEditing(record)}
                      >
                        Edit
                      </button>
                    ) : null}
                    {may("delete", record) && confirming !== record.id ? (
                      <button
                        type="button"
                        className="da-button da-button-danger"
                        aria-label={`Delete ${recordName(entity, record)}`}
                        onClick={() => setConfirming(record.id)}
                      >
                        Delete
                      </button>
                    ) : null}
                    {confirming === record.id ? (
                      <>
                        <button type="button" className="da-button da-button-danger" onClick={() => remove(record)}>
                          Confirm delete
                        </button>
                        <button type="button" className="da-button" onClick={() => setConfirming(null)}>
                          Keep
                        </button>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label={entity.name} offset={list.offset} total={list.total} onChange={list.showOffset} />
    </section>
  );
}
