"use client";

import { type ErrorBody, MAX_ORGANIZATION_NAME_LENGTH, SLUG_PATTERN } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { issuesByField } from "@/lib/domain-auth/api";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import {
  deleteOrganization,
  NAME_SENTENCE,
  type Organization,
  renameOrganization,
  SLUG_SENTENCE,
  SLUG_TAKEN_SENTENCE,
} from "@/lib/domain-auth/organizations";
import { FormError } from "./form-error";
import { TextField } from "./text-field";

/** Props of {@link OrganizationSettings}. */
export interface OrganizationSettingsProps {
  readonly organization: Organization;
  /** After a rename: the page shows the new name. */
  readonly onRenamed: () => void;
  /** After the organization was deleted. */
  readonly onDeleted: () => void;
}

/** Renames the organization (its name and slug) or deletes it once it holds no records: the first role's, and the setup role's. */
export function OrganizationSettings({ organization, onRenamed, onDeleted }: OrganizationSettingsProps) {
  const hydrated = useHydrated();
  const [name, setName] = useState(organization.name);
  const [slug, setSlug] = useState(organization.slug);
  const [error, setError] = useState<ErrorBody | null>(null);
  const [local, setLocal] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);

  async function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const changes = {
      ...(name.trim() !== organization.name ? { name: name.trim() } : {}),
      ...(slug.trim() !== organization.slug ? { slug: slug.trim() } : {}),
    };
    if (changes.name !== undefined && (changes.name === "" || changes.name.length > MAX_ORGANIZATION_NAME_LENGTH)) {
      return setLocal(NAME_SENTENCE);
    }
    if (changes.slug !== undefined && !SLUG_PATTERN.test(changes.slug)) {
      return setLocal(SLUG_SENTENCE);
    }
    setLocal(null);
    if (changes.name === undefined && changes.slug === undefined) return setStatus("Nothing to change.");
    const result = await renameOrganization(organization.id, changes);
    if (!result.ok) return setError(result.error);
    setStatus("Saved.");
    onRenamed();
  }

  async function remove() {
    const result = await deleteOrganization(organization.id);
    setConfirming(false);
    if (!result.ok) return setDeleteFailure(result.error.message);
    onDeleted();
  }

  const fields = issuesByField(error);
  const slugTaken = error?.code === "CONFLICT" && fields.slug !== undefined;
  return (
    <section className="da-card" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <p className="da-status" role="status">
        {status}
      </p>
      <form className="da-form" onSubmit={rename} noValidate>
        <FormError error={local ?? (slugTaken ? SLUG_TAKEN_SENTENCE : fields.slug ? SLUG_SENTENCE : fields.name ? NAME_SENTENCE : error)} />
        <TextField label="Name" name="name" value={name} required onChange={(event) => setName(event.target.value)} />
        <TextField
          label="Slug"
          name="slug"
          value={slug}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          onChange={(event) => setSlug(event.target.value)}
        />
        <div className="da-actions">
          <button type="submit" className="da-button" disabled={!hydrated}>
            Rename
          </button>
        </div>
      </form>
      <h3 className="da-subsection">Delete the organization</h3>
      <p className="da-field-hint">Only an organization that holds no records can be deleted; its members and invitations go with it.</p>
      <FormError error={deleteFailure} />
      <div className="da-actions">
        {confirming ? (
          <>
            <button type="button" className="da-button da-button-danger" onClick={remove}>
              Confirm delete
            </button>
            <button type="button" className="da-button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" className="da-button da-button-danger" disabled={!hydrated} onClick={() => setConfirming(true)}>
            Delete organization
          </button>
        )}
      </div>
    </section>
  );
}
