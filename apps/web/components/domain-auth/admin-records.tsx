"use client";

import { itemPath, mayPerform } from "@domain-auth/core/policy";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { pluralName, recordsHref } from "@/lib/domain-auth/admin-sections";
import { callApi } from "@/lib/domain-auth/api";
import type { EntityView } from "@/lib/domain-auth/domain-view";
import { fieldLabel } from "@/lib/domain-auth/format";
import { useRecordActions } from "@/lib/domain-auth/record-actions";
import { adminRecordLinks, type EntityRecord, recordLabel, useReferenceLabels } from "@/lib/domain-auth/record-labels";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { useAdmin } from "./admin-shell";
import { EntityRecords } from "./entity-records";
import { FormError } from "./form-error";
import { ReauthPrompt } from "./reauth-prompt";
import { RecordForm } from "./record-form";
import { RecordValue } from "./record-value";

function entityOf(entities: readonly EntityView[], segment: string): EntityView {
  const entity = entities.find((candidate) => candidate.segment === segment);
  if (!entity) throw new Error(`no entity at ${segment}`);
  return entity;
}

/** An entity's page in the admin: its records as the caller may see and change them. */
export function AdminRecords({ segment }: { readonly segment: string }) {
  const admin = useAdmin();
  const entity = entityOf(admin.view.entities, segment);
  const reader = admin.user?.id ?? "";
  return (
    <EntityRecords
      key={`${reader}:${segment}`}
      entity={entity}
      caller={admin.caller}
      authorization={admin.authorization}
      links={adminRecordLinks(admin.view, admin.sections, entity, reader)}
      headingLevel={1}
      title={pluralName(entity.name)}
    />
  );
}

/** The values of a record, each field in full: declared fields, the owner, when it was created and changed, its id. */
function RecordDetails({ entity, record }: { readonly entity: EntityView; readonly record: EntityRecord }) {
  const admin = useAdmin();
  const links = adminRecordLinks(admin.view, admin.sections, entity, admin.user?.id ?? "");
  const labels = useReferenceLabels(links.references, [record], links.reader);
  const names = [
    ...entity.fields.map((field) => field.name),
    ...(entity.ownerField ? [entity.ownerField] : []),
    "createdAt",
    "updatedAt",
    "id",
  ];
  return (
    <dl className="da-details da-record-details">
      {names.map((name) => {
        const value = record[name];
        const target = links.references.get(name);
        const reference =
          target && typeof value === "string"
            ? { target, label: labels.get(`${name}:${value}`), href: links.reference(target, value) }
            : undefined;
        return (
          <div key={name}>
            <dt>{name === "id" ? "Id" : fieldLabel(name)}</dt>
            <dd>
              <RecordValue field={entity.fields.find((field) => field.name === name)} value={value} reference={reference} />
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** A record's page in the admin: every value in full, and edit and delete (with confirmation) where the caller may. */
export function AdminRecord({ segment, id }: { readonly segment: string; readonly id: string }) {
  const admin = useAdmin();
  const router = useRouter();
  const entity = entityOf(admin.view.entities, segment);
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const loaded = useLoaded(JSON.stringify([itemPath(entity, id), version, admin.user?.id]), () =>
    callApi<{ item: EntityRecord }>(itemPath(entity, id)),
  );
  const actions = useRecordActions(entity, undefined, (change) => {
    if (change === "deleted") router.push(recordsHref(entity));
    setEditing(false);
    setVersion((value) => value + 1);
  });
  const answer = loaded.value;
  const back = (
    <p>
      <Link href={recordsHref(entity)}>← All {pluralName(entity.name).toLowerCase()}</Link>
    </p>
  );
  if (answer === undefined) return <p role="status">Loading…</p>;
  if (!answer.ok) {
    return (
      <>
        {back}
        <h1>{entity.name}</h1>
        <FormError error={answer.error.code === "NOT_FOUND" ? `There is no ${entity.name} with this id.` : answer.error} />
      </>
    );
  }
  const record = answer.data.item;
  const may = (operation: "update" | "delete") => mayPerform(entity, operation, admin.caller, { ...admin.authorization, record });
  return (
    <article className="da-record" aria-labelledby="record-heading">
      {back}
      <div className="da-section-head">
        <h1 id="record-heading" className="da-record-title">
          {recordLabel(entity, record)}
        </h1>
        <div className="da-actions">
          {may("update") && !editing ? (
            <button type="button" className="da-button" onClick={() => setEditing(true)}>
              Edit
            </button>
          ) : null}
          {may("delete") && !confirming ? (
            <button type="button" className="da-button da-button-danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          ) : null}
        </div>
      </div>
      <p className="da-status" role="status">
        {actions.status}
      </p>
      <FormError error={actions.failure} />
      {confirming ? (
        <div className="da-notice da-notice-denied" role="alert">
          <p>Delete this {entity.name}? This cannot be undone.</p>
          <div className="da-actions">
            <button type="button" className="da-button da-button-danger" onClick={() => actions.remove(record)}>
              Confirm delete
            </button>
            <button type="button" className="da-button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </div>
        </div>
      ) : null}
      {actions.retry ? (
        <ReauthPrompt action={`save this ${entity.name}`} onPassword={actions.retry} onCancel={actions.cancelRetry} />
      ) : null}
      {editing ? (
        <RecordForm
          title={`Edit ${entity.name}`}
          fields={entity.fields}
          record={record}
          submitLabel="Save"
          onSubmit={(body) => actions.save(record, body)}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <RecordDetails entity={entity} record={record} />
      )}
    </article>
  );
}
