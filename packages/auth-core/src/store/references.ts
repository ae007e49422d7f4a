import type { Kysely } from "kysely";
import type { DomainModel, EntityModel, FieldModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import type { AnyDB, Database } from "./database.js";

/** A `ref` value a write stores: the field, the entity it points into, and the id it names. */
export interface RefTarget {
  readonly field: string;
  readonly target: EntityModel;
  readonly id: string;
  /** A tenant target's organization: the record must belong to it (a record never points into another organization). */
  readonly organizationId?: string;
}

/** A `ref` field (owner fields included) whose values point at records of some entity. */
export interface Referrer {
  readonly entity: EntityModel;
  readonly field: FieldModel;
}

/** Required `ref`s still point at the record a delete was asked for: how many, from where. */
export interface BlockingReference {
  readonly entity: string;
  readonly field: string;
  readonly count: number;
}

/** A write named a record that does not exist (or was deleted meanwhile) in a `ref` field. */
export class MissingRefError extends Error {
  override readonly name = "MissingRefError";
  constructor(readonly missing: readonly RefTarget[]) {
    super(`no such record for ${missing.map((ref) => `'${ref.field}'`).join(", ")}`);
  }
}

/** A delete was refused because required `ref`s point at the record. */
export class ReferencedError extends Error {
  override readonly name = "ReferencedError";
  constructor(readonly references: readonly BlockingReference[]) {
    super(`required references: ${references.map((ref) => `${ref.entity}.${ref.field} (${ref.count})`).join(", ")}`);
  }
}

/** Every `ref` field of the model that points at `target`'s records, owner fields included. */
export function referrersOf(model: DomainModel, target: EntityModel): Referrer[] {
  return model.entities.flatMap((entity) =>
    entity.fields.filter((field) => field.type === "ref" && field.to === target.name).map((field) => ({ entity, field })),
  );
}

/** The `ref` values among `values` that name a record, with the entity each points into. */
export function refTargetsOf(
  model: DomainModel,
  entity: EntityModel,
  values: Record<string, unknown>,
  organizationId?: string,
): RefTarget[] {
  const targets: RefTarget[] = [];
  for (const field of entity.fields) {
    const id = values[field.name];
    const target = model.entities.find((candidate) => candidate.name === field.to);
    if (field.type !== "ref" || typeof id !== "string" || !target) continue;
    targets.push({ field: field.name, target, id, ...(target.tenant && organizationId !== undefined ? { organizationId } : {}) });
  }
  return targets;
}

/**
 * Inside a write transaction, makes sure every target exists and keeps it from being deleted
 * until the transaction ends: on PostgreSQL with `for key share` (a concurrent delete holds
 * `for update` and so either waits for this write, then sees its record, or makes this read find
 * nothing); on SQLite the write transaction already excludes every other writer.
 *
 * @throws {MissingRefError} naming the targets that do not exist.
 */
export async function holdRefTargets(trx: Kysely<AnyDB>, dialect: Database["dialect"], refs: readonly RefTarget[]): Promise<void> {
  const missing: RefTarget[] = [];
  for (const ref of refs) {
    let query = trx.selectFrom(ref.target.table).select("id").where("id", "=", ref.id);
    if (ref.target.tenant) query = query.where(ORGANIZATION_ID_FIELD, "=", ref.organizationId ?? null);
    if (dialect === "postgres") query = query.forKeyShare();
    if ((await query.executeTakeFirst()) === undefined) missing.push(ref);
  }
  if (missing.length > 0) throw new MissingRefError(missing);
}

/**
 * Inside the transaction that deletes record `id`, before the delete: refuses when a required
 * `ref` of another record points at it, else sets every optional one that does to `null` (and
 * bumps that record's `updatedAt`). The caller holds the record's row lock, so no write can add
 * a reference meanwhile (see {@link holdRefTargets}).
 *
 * @throws {ReferencedError} listing the required references, having changed nothing.
 */
export async function releaseReferences(trx: Kysely<AnyDB>, referrers: readonly Referrer[], id: string): Promise<void> {
  const pointing = (referrer: Referrer) =>
    // A record's reference to itself goes with it.
    trx.selectFrom(referrer.entity.table).where(referrer.field.name, "=", id).where("id", "<>", id);
  const blocking: BlockingReference[] = [];
  for (const referrer of referrers.filter((candidate) => candidate.field.required)) {
    const row = await pointing(referrer)
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .executeTakeFirstOrThrow();
    const count = Number(row.total);
    if (count > 0) blocking.push({ entity: referrer.entity.name, field: referrer.field.name, count });
  }
  if (blocking.length > 0) throw new ReferencedError(blocking);
  const now = new Date().toISOString();
  for (const referrer of referrers.filter((candidate) => !candidate.field.required)) {
    await trx
      .updateTable(referrer.entity.table)
      .set({ [referrer.field.name]: null, updatedAt: now })
      .where(referrer.field.name, "=", id)
      .where("id", "<>", id)
      .execute();
  }
}
