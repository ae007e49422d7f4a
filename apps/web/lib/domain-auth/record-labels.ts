import { itemPath } from "@domain-auth/core/policy";
import { type AdminSection, recordsHref, userHref } from "./admin-sections";
import { callApi } from "./api";
import type { DomainView, EntityView, FieldView } from "./domain-view";
import { useLoaded } from "./use-loaded";

/** A record as a list or an item answers it. */
export type EntityRecord = Record<string, unknown> & { readonly id: string };

/** What a reference points at: a user (the auth entity), or a record of an entity of the domain. */
export type ReferenceTarget =
  | { readonly kind: "user"; readonly segment: string }
  | { readonly kind: "record"; readonly entity: EntityView };

/** How a record is named on buttons and in references: its first non-empty string field, else its id. */
export function recordLabel(entity: Pick<EntityView, "fields">, record: EntityRecord): string {
  const text = entity.fields.find(
    (field) => field.type === "string" && typeof record[field.name] === "string" && record[field.name] !== "",
  );
  return text ? String(record[text.name]) : record.id;
}

/**
 * What a `ref` field points at (`to: User` is the auth entity, whose label is the e-mail); `null` for a
 * target the pages cannot read (a tenant entity outside its organization, an unknown name).
 */
export function referenceTarget(view: DomainView, to: string | undefined): ReferenceTarget | null {
  if (to === undefined) return null;
  if (view.auth && to === view.auth.entityName) return { kind: "user", segment: view.auth.segment };
  const entity = view.entities.find((candidate) => candidate.name === to && !candidate.tenant);
  return entity ? { kind: "record", entity } : null;
}

/** Where a list's records and references lead: the admin's record pages, and the labels of references. */
export interface RecordLinks {
  /** Each reference column's target (`ref` fields and the owner field). */
  readonly references: ReadonlyMap<string, ReferenceTarget>;
  /** Whose labels these are (the signed-in user's id): another reader may not read the same. */
  readonly reader: string;
  /** The page of one of the entity's records. */
  readonly record: (id: string) => string;
  /** The page a reference opens, `null` where the reader has none. */
  readonly reference: (target: ReferenceTarget, id: string) => string | null;
}

/** The reference columns of a table: each `ref` field's target, and the owner field's (the auth entity). */
export function referenceFields(view: DomainView, entity: EntityView): Map<string, ReferenceTarget> {
  const targets = new Map<string, ReferenceTarget>();
  const refs: Pick<FieldView, "name" | "to">[] = entity.fields.filter((field) => field.type === "ref");
  if (entity.ownerField && view.auth) refs.push({ name: entity.ownerField, to: view.auth.entityName });
  for (const field of refs) {
    const target = referenceTarget(view, field.to);
    if (target) targets.set(field.name, target);
  }
  return targets;
}

function targetPath(target: ReferenceTarget, id: string): string {
  return itemPath(target.kind === "user" ? { segment: target.segment } : target.entity, id);
}

// Labels read so far, per signed-in user (another user may not read the same records): a label is
// the e-mail of a user or the first text of a record, `null` where the reader may not see it.
const LABELS_KEPT = 2_000;
const labels = new Map<string, Promise<string | null>>();

function readLabel(reader: string, target: ReferenceTarget, id: string): Promise<string | null> {
  const path = targetPath(target, id);
  const key = `${reader}\u0000${path}`;
  const known = labels.get(key);
  if (known) return known;
  if (labels.size >= LABELS_KEPT) labels.clear();
  const label = callApi<{ item: EntityRecord }>(path).then((answer) => {
    if (!answer.ok) return null;
    return target.kind === "user" ? String(answer.data.item.email ?? id) : recordLabel(target.entity, answer.data.item);
  });
  labels.set(key, label);
  return label;
}

/** Forgets the labels read, after a record was renamed or deleted. */
export function forgetLabels(): void {
  labels.clear();
}

/**
 * The labels of the references on show (`<field>:<id>` → label): a user's e-mail, a record's first
 * text, each read once per reader and page, in parallel. A reference the reader may not read keeps
 * no label (the page shows its id).
 */
export function useReferenceLabels(
  targets: ReadonlyMap<string, ReferenceTarget>,
  records: readonly EntityRecord[],
  reader: string,
): ReadonlyMap<string, string> {
  const wanted: [field: string, target: ReferenceTarget, id: string][] = [];
  for (const record of records) {
    for (const [field, target] of targets) {
      const id = record[field];
      if (typeof id === "string" && id !== "" && !wanted.some(([name, , known]) => name === field && known === id))
        wanted.push([field, target, id]);
    }
  }
  const key = wanted.length === 0 ? null : JSON.stringify([reader, wanted.map(([field, , id]) => `${field}:${id}`)]);
  const loaded = useLoaded(key, async () => {
    const found = await Promise.all(wanted.map(([, target, id]) => readLabel(reader, target, id)));
    return new Map(wanted.flatMap(([field, , id], index) => (found[index] ? [[`${field}:${id}`, found[index]] as const] : [])));
  });
  return loaded.value ?? EMPTY;
}

const EMPTY: ReadonlyMap<string, string> = new Map();

/**
 * The links of an entity's records in the admin: each record's page, a referenced user's page (for
 * the setup role, who has the Users pages) and a referenced record's page (where the caller has its
 * entity's pages); references are shown by label (`useReferenceLabels`) as `reader` may read them.
 */
export function adminRecordLinks(view: DomainView, sections: readonly AdminSection[], entity: EntityView, reader: string): RecordLinks {
  const users = sections.some((section) => section.kind === "users");
  return {
    references: referenceFields(view, entity),
    reader,
    record: (id) => recordsHref(entity, id),
    reference: (target, id) => {
      if (target.kind === "user") return users ? userHref(id) : null;
      return sections.some((section) => section.entity?.segment === target.entity.segment) ? recordsHref(target.entity, id) : null;
    },
  };
}
