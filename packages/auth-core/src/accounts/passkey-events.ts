import type { Kysely } from "kysely";
import type { AnyDB } from "../store/database.js";
import { byUser, type RequestEvents } from "./security-events.js";

/** What the events of a passkey change say: whose, from which session, which passkey. */
export interface PasskeyChange {
  readonly user: { readonly id: string; readonly email: string };
  /** The session that made the change; `null` for the holder of a required enrolment's `mfaToken`. */
  readonly sessionId: string | null;
  /** The passkey's own id (the one `GET passkeys` lists), never its credential or public key. */
  readonly passkeyId: string;
  /** The name the user gave it, when there is one. */
  readonly name?: string | null;
}

/**
 * Writes `passkey.added` in the transaction that stores the passkey (docs/mfa.md, docs/events.md), so neither
 * commits without the other.
 * @example await writePasskeyAdded(requestEvents(context, services, request), trx, { user, sessionId, passkeyId: row.id, name })
 */
export function writePasskeyAdded(events: RequestEvents, trx: Kysely<AnyDB>, change: PasskeyChange): Promise<void> {
  return events.write(trx, { type: "passkey.added", ...byUser(change.user), sessionId: change.sessionId, detail: detailOf(change) });
}

/** Writes `passkey.removed` in the transaction that deletes the passkey, as {@link writePasskeyAdded}. */
export function writePasskeyRemoved(events: RequestEvents, trx: Kysely<AnyDB>, change: PasskeyChange): Promise<void> {
  return events.write(trx, { type: "passkey.removed", ...byUser(change.user), sessionId: change.sessionId, detail: detailOf(change) });
}

function detailOf(change: PasskeyChange): Record<string, string> {
  return { passkeyId: change.passkeyId, ...(change.name ? { name: change.name.slice(0, 100) } : {}) };
}
