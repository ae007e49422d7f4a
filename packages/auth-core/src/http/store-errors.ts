import { SetupCompleteError, UniqueConflictError } from "../store/record-store.js";
import { MissingRefError, ReferencedError } from "../store/references.js";
import { ApiError } from "./errors.js";

/**
 * Maps the store's expected failures to the API's codes: a unique clash on the auth email is
 * `EMAIL_TAKEN`, others `CONFLICT`; `ref` failures as {@link referenceError} says.
 */
export function storeError(error: unknown, options: { isAuthEntity: boolean }): unknown {
  if (error instanceof UniqueConflictError) {
    const code = options.isAuthEntity && error.column === "email" ? "EMAIL_TAKEN" : "CONFLICT";
    return new ApiError(code, { issues: [{ path: [error.column], message: "is already taken" }], cause: error });
  }
  if (error instanceof SetupCompleteError) return new ApiError("SETUP_COMPLETE", { cause: error });
  return referenceError(error);
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
