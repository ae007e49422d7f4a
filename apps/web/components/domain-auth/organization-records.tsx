"use client";

import { type FormEvent, useId, useState } from "react";
import type { EntityView } from "@/lib/domain-auth/domain-view";
import { readOrganization, useOrganizations } from "@/lib/domain-auth/organizations";
import { useLoaded } from "@/lib/domain-auth/use-loaded";
import { EntityRecords } from "./entity-records";
import { FormError } from "./form-error";
import { TextField } from "./text-field";

/** Props of {@link OrganizationRecords}. */
export interface OrganizationRecordsProps {
  /** The tenant entities: their records belong to an organization. */
  readonly entities: readonly EntityView[];
  /** The signed-in administrator. */
  readonly user: { readonly id: string; readonly role: string | null };
}

/**
 * The admin page's records of the tenant entities, one organization at a time: one of the
 * administrator's own organizations, or any other by its id (the setup role's support access).
 */
export function OrganizationRecords({ entities, user }: OrganizationRecordsProps) {
  const selectId = useId();
  const organizations = useOrganizations(user.id);
  const [chosen, setChosen] = useState("");
  const [typed, setTyped] = useState("");
  const loaded = useLoaded(chosen === "" ? null : chosen, () => readOrganization(chosen));
  const answer = loaded.key === chosen ? loaded.value : undefined;
  const names = entities.map((entity) => entity.name).join(", ");

  function showTyped(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChosen(typed.trim());
  }

  return (
    <>
      <section className="da-card" aria-labelledby="organization-records-heading">
        <h2 id="organization-records-heading">Organization records</h2>
        <p className="da-field-hint">
          {names} records belong to an organization: choose one of yours, or enter the id of any organization to see it with support access.
        </p>
        <div className="da-field">
          <label htmlFor={selectId}>Organization</label>
          <select
            id={selectId}
            value={organizations.items?.some((item) => item.id === chosen) ? chosen : ""}
            onChange={(event) => setChosen(event.target.value)}
          >
            <option value="">{organizations.items?.length === 0 ? "You are in no organization" : "Choose an organization…"}</option>
            {(organizations.items ?? []).map((organization) => (
              <option key={organization.id} value={organization.id}>
                {organization.name} ({organization.role})
              </option>
            ))}
          </select>
        </div>
        <form className="da-form da-org-id-form" onSubmit={showTyped}>
          <TextField
            label="Or an organization id"
            name="organizationId"
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setTyped(event.target.value)}
          />
          <div className="da-actions">
            <button type="submit" className="da-button">
              Show its records
            </button>
          </div>
        </form>
        {answer && !answer.ok ? (
          <FormError error={answer.status === 404 ? "There is no organization with this id." : answer.error} />
        ) : null}
        {answer?.ok ? (
          <p>
            Showing <strong>{answer.data.organization.name}</strong> (<code>{answer.data.organization.slug}</code>),{" "}
            {answer.data.role === null ? "with support access" : `where your role is ${answer.data.role}`}.
          </p>
        ) : null}
      </section>
      {answer?.ok
        ? entities.map((entity) => (
            <EntityRecords
              key={`${answer.data.organization.id}:${entity.segment}`}
              entity={entity}
              caller={user}
              organization={{ id: answer.data.organization.id, membership: answer.data.role === null ? null : { role: answer.data.role } }}
            />
          ))
        : null}
    </>
  );
}
