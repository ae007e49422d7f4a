import type { EntityModel } from "../config/index.js";
import type { RouteContext } from "../context.js";
import { ApiError, type Issue } from "../http/errors.js";

/**
 * Body validation of `ref` values (400 `INVALID_BODY`): each names an existing record of its
 * target (of the same organization, for a tenant target). Checked before any guard, in the order of docs/api.md#errors-in-the-order-they-are-checked; the write checks them again
 * inside its transaction, where a concurrent delete can no longer slip in between.
 */
export async function checkRefs(
  context: RouteContext,
  entity: EntityModel,
  values: Record<string, unknown>,
  organizationId?: string,
): Promise<void> {
  const issues: Issue[] = [];
  for (const field of entity.fields) {
    const value = values[field.name];
    if (field.type !== "ref" || typeof value !== "string") continue;
    const target = context.model.entities.find((candidate) => candidate.name === field.to);
    // Without a target (the hidden owner under auth.type none) only null fits.
    if (!target) issues.push({ path: [field.name], message: "must be null" });
    // A tenant record names records of its own organization only: another's is as absent as a made-up id.
    else if (!(await context.store.exists(target, value, target.tenant ? { organizationId: organizationId ?? "" } : {})))
      issues.push({ path: [field.name], message: `is not the id of an existing ${field.to}` });
  }
  if (issues.length > 0) throw new ApiError("INVALID_BODY", { issues });
}
