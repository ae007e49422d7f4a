import type { Kysely } from "kysely";
import type { EntityModel } from "../config/index.js";
import type { EventDraft } from "../events/event-log.js";
import { API_KEY_USE_INTERVAL_MS } from "../policy/api-keys.js";
import type { AnyDB } from "../store/database.js";
import type { ApiKeyRow, ApiKeyStore, KeyWithUser } from "./api-key-store.js";
import { hashApiKey, newApiKey, newApiKeyId } from "./secrets.js";

/** Why every key of a user was revoked at once: their recovery ended what a thief may have made. */
export type KeyRevocationReason = "password_reset" | "password_set_by_admin";

/** Whom a revocation of every key is about, and who did it. */
export interface RevokedKeysSubject {
  readonly userId: string;
  readonly email: string;
  readonly actorId: string | null;
  readonly sessionId: string | null;
}

/** The longest bearer token checked as a key; ours are 46 characters. */
const MAX_KEY_LENGTH = 128;

/** What a new key is made of: its name, when it expires (ms, `null` never) and its scopes (`null` all). */
export interface NewApiKey {
  readonly name: string;
  readonly expiresAt: number | null;
  readonly scopes: readonly string[] | null;
}

/** API keys (docs/api-keys.md): issued once in plain form, checked by their SHA-256 in one read, their uses noted at most once a minute. */
export class ApiKeys {
  /** The writes of uses under way, so that closing waits for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    readonly store: ApiKeyStore,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Revokes every key of a user in `trx` (a recovery: docs/security.md#sensitive-actions) and answers
   * one `api_key.revoked` event to write with it per key, `detail.reason` saying why.
   */
  async revokeEvery(trx: Kysely<AnyDB>, subject: RevokedKeysSubject, reason: KeyRevocationReason): Promise<EventDraft[]> {
    const removed = await this.store.removeEvery(trx, subject.userId);
    return removed.map((key) => ({
      type: "api_key.revoked",
      userId: subject.userId,
      email: subject.email,
      actorId: subject.actorId,
      sessionId: subject.sessionId,
      detail: { keyId: key.id, name: key.name, reason },
    }));
  }

  /**
   * The live key this bearer token is, with its user; `undefined` for an unknown, expired or
   * revoked key, or one whose user is gone. A use is written down after the answer, and only when
   * the last one written is a minute old.
   */
  async check(entity: EntityModel, token: string): Promise<KeyWithUser | undefined> {
    if (token.length > MAX_KEY_LENGTH) return undefined;
    const found = await this.store.findForCheck(entity, hashApiKey(token));
    if (!found) return undefined;
    const now = this.now();
    if (found.key.expiresAt !== null && found.key.expiresAt <= now) return undefined;
    const since = now - API_KEY_USE_INTERVAL_MS;
    if (found.key.lastUsedAt === null || found.key.lastUsedAt <= since) this.noteUse(found.key.id, now, since);
    return found;
  }

  /** Writes a use after the answer (a later turn of the event loop); a failure goes to `onError`. */
  private noteUse(id: string, now: number, since: number): void {
    const write: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.store.recordUse(id, now, since))
      .catch(this.onError)
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Waits for the uses being written. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  /** Issues a key for `userId`, stored in `trx` (with the event that records it); the key in plain form is in the answer only. */
  async issue(trx: Kysely<AnyDB>, userId: string, draft: NewApiKey): Promise<{ row: ApiKeyRow; key: string }> {
    const key = newApiKey();
    const row: ApiKeyRow = { id: newApiKeyId(), userId, keyHash: hashApiKey(key), ...draft, createdAt: this.now(), lastUsedAt: null };
    await this.store.insert(trx, row);
    return { row, key };
  }
}
