import type { EntityModel } from "../config/index.js";
import type { RouteContext } from "../context.js";
import { ApiError, type Issue } from "../http/errors.js";
import { MissingRefError, ReferencedError } from "../store/references.js";

/**
 * Body validation of `ref` values (400 `INVALID_BODY`): each names an existing record of its
 * target. Checked before any guard, in the order of CONTRACT 9; the write checks them again
 * inside its transaction, where a concurrent delete can no longer slip in between.
 */
export async function checkRefs(context: RouteContext, entity: EntityModel, values: Record<string, unknown>): Promise<void> {
  const issues: Issue[] = [];
  for (const field of entity.fields) {
    const value = values[field.name];
    if (field.type !== "ref" || typeof value !== "string") continue;
    const target = context.model.entities.find((candidate) => candidate.name === field.to);
    // Without a target (the hidden owner under auth.type none) only null fits.
    if (!target) issues.push({ path: [field.name], message: "must be null" });
    else if (!(await context.store.exists(target, value)))
      issues.push({ path: [field.name], message: `is not the id of an existing ${field.to}` });
  }
  if (issues.length > 0) throw new ApiError("INVALID_BODY", { issues });
}

function countOf(count: number): string {
  return count === 1 ? "1 record refers to this" : `${count} records refer to this`;
}

/**
 * Maps the store's reference failures to the API's codes: a `ref` to a record that is gone is
 * 400 `INVALID_BODY`; a delete refused because required `ref`s point at the record is 409
 * `CONFLICT` with one issue per entity and field. Other errors are returned unchanged.
 */
export function referenceError(error: unknown): unknown {
  if (error instanceof MissingRefError) {
    const issues = error.missing.map((ref) => ({ path: [ref.field], message: `is not the id of an existing ${ref.target.name}` }));
    return new ApiError("INVALID_BODY", { issues, cause: error });
  }
  if (error instanceof ReferencedError) {
    const names = error.references.map((ref) => `${ref.entity}.${ref.field}`).join(", ");
    return new ApiError("CONFLICT", {
      message: `Other records must refer to this one (${names}); change or delete them first`,
      issues: error.references.map((ref) => ({ path: [ref.entity, ref.field], message: countOf(ref.count) })),
      cause: error,
    });
  }
  return error;
}
