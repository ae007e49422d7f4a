"use client";

import { type ErrorBody, MAX_ORGANIZATION_NAME_LENGTH, SLUG_PATTERN } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { formErrorSummary, issuesByField } from "@/lib/domain-auth/api";
import { withoutFixed } from "@/lib/domain-auth/form-errors";
import { useHydrated } from "@/lib/domain-auth/hydrated";
import {
  createOrganization,
  type MembershipAnswer,
  NAME_SENTENCE,
  SLUG_SENTENCE,
  SLUG_TAKEN_SENTENCE,
} from "@/lib/domain-auth/organizations";
import { FormError } from "./form-error";
import { TextField } from "./text-field";

/** The sentences a refused creation shows beside its inputs: the API's issues, said for a person. */
function fieldSentences(error: ErrorBody | null): Record<string, string | undefined> {
  const issues = issuesByField(error);
  return {
    name: issues.name === undefined ? undefined : NAME_SENTENCE,
    slug:
      issues.slug === undefined
        ? undefined
        : `${error?.code === "CONFLICT" ? SLUG_TAKEN_SENTENCE : SLUG_SENTENCE} Or leave it empty to have one made from the name.`,
  };
}

/** Props of {@link CreateOrganizationForm}. */
export interface CreateOrganizationFormProps {
  /** Called with the new organization (and the caller's role in it). */
  readonly onCreated: (created: MembershipAnswer) => void;
}

/** Creates an organization: its name and, optionally, its slug (made from the name when left empty). */
export function CreateOrganizationForm({ onCreated }: CreateOrganizationFormProps) {
  const hydrated = useHydrated();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorBody | null>(null);
  const [local, setLocal] = useState<Record<string, string | undefined>>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const draft = { name: name.trim(), ...(slug.trim() ? { slug: slug.trim() } : {}) };
    // The rules of the API, checked first so the sentence comes at once; the API checks them again.
    const checked = {
      name: draft.name === "" || draft.name.length > MAX_ORGANIZATION_NAME_LENGTH ? NAME_SENTENCE : undefined,
      slug: draft.slug !== undefined && !SLUG_PATTERN.test(draft.slug) ? SLUG_SENTENCE : undefined,
    };
    setLocal(checked);
    setError(null);
    if (checked.name || checked.slug) return;
    setBusy(true);
    const result = await createOrganization(draft);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setName("");
    setSlug("");
    onCreated(result.data);
  }

  /** An input changed: its sentences go, the one checked here and the API's. */
  function forget(field: "name" | "slug") {
    setLocal((checked) => ({ ...checked, [field]: undefined }));
    setError((answer) => withoutFixed(answer, new Set([field])));
  }

  const sentences = fieldSentences(error);
  const nameError = local.name ?? sentences.name;
  const slugError = local.slug ?? sentences.slug;
  return (
    <form className="da-form" onSubmit={submit} aria-busy={busy} noValidate>
      <FormError error={formErrorSummary(error, ["name", "slug"])} />
      <TextField
        label="Organization name"
        name="name"
        value={name}
        required
        maxLength={MAX_ORGANIZATION_NAME_LENGTH}
        autoComplete="organization"
        error={nameError}
        onChange={(event) => {
          setName(event.target.value);
          forget("name");
        }}
      />
      <TextField
        label="Slug (optional)"
        name="slug"
        value={slug}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint="A short unique name for links, such as acme-inc. Left empty, one is made from the name."
        error={slugError}
        onChange={(event) => {
          setSlug(event.target.value);
          forget("slug");
        }}
      />
      <div className="da-actions">
        <button type="submit" className="da-button da-button-primary" disabled={busy || !hydrated}>
          Create organization
        </button>
      </div>
    </form>
  );
}
