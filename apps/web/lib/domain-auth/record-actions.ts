import { collectionPath, type ErrorBody, itemPath } from "@domain-auth/core/policy";
import { useState } from "react";
import { callApi } from "./api";
import type { EntityView } from "./domain-view";
import { needsReauthentication, type RetryWithPassword } from "./reauthentication";
import { type EntityRecord, forgetLabels } from "./record-labels";

/** Creating, saving and deleting an entity's records, as a list and a record's page offer them. */
export interface RecordActions {
  /** Creates a record (`target` `null`) or saves `target`: the API's error, or `null` with `onDone` called. */
  readonly save: (target: EntityRecord | null, body: Record<string, unknown>) => Promise<ErrorBody | null>;
  /** Deletes a record: whether it went. */
  readonly remove: (record: EntityRecord) => Promise<boolean>;
  /** What went wrong outside a form (a delete, a wrong password), as a sentence; `null` when nothing. */
  readonly failure: string | null;
  /** What was done last, for the status line. */
  readonly status: string;
  /** Set while a save waits for the password of a recent sign-in (another user's password, the setup role). */
  readonly retry: RetryWithPassword | null;
  readonly cancelRetry: () => void;
}

/**
 * The record actions of an entity (a tenant entity's within `organizationId`): `onDone` runs after each
 * change with what it did, for the page to read its records again or move on.
 */
export function useRecordActions(
  entity: EntityView,
  organizationId: string | undefined,
  onDone: (change: "created" | "saved" | "deleted", record: EntityRecord | null) => void,
): RecordActions {
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [retry, setRetry] = useState<RetryWithPassword | null>(null);

  async function save(target: EntityRecord | null, body: Record<string, unknown>): Promise<ErrorBody | null> {
    const result = target
      ? await callApi<{ item: EntityRecord }>(itemPath(entity, target.id, organizationId), { method: "PATCH", body })
      : await callApi<{ item: EntityRecord }>(collectionPath(entity, {}, organizationId), { method: "POST", body });
    // Another user's password, or the setup role, needs a recent sign-in: the same save once the password is confirmed.
    if (needsReauthentication(result) && body.currentPassword === undefined) {
      setRetry(() => (currentPassword: string) => save(target, { ...body, currentPassword }));
    }
    if (!result.ok && needsReauthentication(result)) return result.error;
    setRetry(null);
    if (!result.ok) {
      if (body.currentPassword !== undefined) setFailure(result.error.message);
      return result.error;
    }
    setFailure(null);
    setStatus(`${entity.name} ${target ? "saved" : "created"}.`);
    forgetLabels();
    onDone(target ? "saved" : "created", result.data.item);
    return null;
  }

  async function remove(record: EntityRecord): Promise<boolean> {
    const result = await callApi(itemPath(entity, record.id, organizationId), { method: "DELETE" });
    setFailure(result.ok ? null : result.error.message);
    if (result.ok) {
      setStatus(`${entity.name} deleted.`);
      forgetLabels();
      onDone("deleted", record);
    }
    return result.ok;
  }

  return { save, remove, failure, status, retry, cancelRetry: () => setRetry(null) };
}
