import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { AnyDB } from "../store/database.js";
import { afterCommit } from "../store/transaction.js";
import { type EventPosition, encodeCursor } from "./cursor.js";
import type { EventQuery, EventRow, EventStore } from "./event-store.js";
import { type EventDetail, MAX_EVENT_USER_AGENT_LENGTH, type SecurityEventType } from "./event-types.js";
import type { EventPage, SecurityEvent } from "./event-view.js";

/** An event to record: its type and whatever is known of it; the id and the time are added. */
export interface EventDraft {
  readonly type: SecurityEventType;
  readonly userId?: string | null;
  readonly actorId?: string | null;
  readonly email?: string | null;
  readonly address?: string | null;
  readonly userAgent?: string | null;
  readonly sessionId?: string | null;
  readonly detail?: EventDetail;
}

/** Receives each event once it is committed (docs/events.md); what it returns is not awaited by any answer. */
export type EventListener = (event: SecurityEvent) => void | Promise<void>;

/** How an {@link EventLog} keeps and hands on events. */
export interface EventLogOptions {
  /** The clock, in milliseconds. */
  readonly now: () => number;
  /** Events older than this many days are purged. */
  readonly retentionDays: number;
  readonly onEvent?: EventListener;
  /** Receives what fails after an answer: a listener that threw, an event that could not be written. */
  readonly onError: (error: unknown) => void;
}

const DAY_MS = 24 * 3600 * 1000;
/** The sweep of old events runs at most this often per instance. */
const SWEEP_INTERVAL_MS = 60_000;
/** A sweep deletes in batches of this many rows, at most {@link MAX_SWEEP_BATCHES} of them. */
const SWEEP_BATCH = 1000;
const MAX_SWEEP_BATCHES = 10;

/** A later turn of the event loop: after the answer under way has been handed on. */
function afterAnswer(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Control characters, and the two line separators some log readers break lines at. */
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/gu;

/**
 * `value` with each control character written as a `\uXXXX` escape: what came from a request (an
 * email as typed, a `User-Agent`) stays on one line wherever the event is written as text, so it
 * cannot forge a line of a log.
 */
export function oneLine(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.replace(LINE_BREAKING, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A detail whose text values are each {@link oneLine}. */
function oneLineDetail(detail: EventDetail): EventDetail {
  return Object.fromEntries(Object.entries(detail).map(([key, value]) => [key, typeof value === "string" ? oneLine(value) : value]));
}

/** An event as the API answers it. */
export function eventOf(row: EventRow): SecurityEvent {
  return { ...row, at: new Date(row.at).toISOString() };
}

/**
 * The security event log (docs/events.md): an event of a change is written in the change's own
 * transaction; a refused attempt after its answer. `onEvent` hears of each after its commit, on a
 * later turn of the event loop, and old events are purged in bounded batches, at most once a minute.
 */
export class EventLog {
  private readonly pending = new Set<Promise<void>>();
  private lastSweep = Number.NEGATIVE_INFINITY;
  private sequence = 0;

  constructor(
    readonly store: EventStore,
    private readonly options: EventLogOptions,
  ) {}

  /** The current time of the log's clock, in milliseconds. */
  now(): number {
    return this.options.now();
  }

  /**
   * Writes the event of a change through `trx`, the change's transaction: both commit or neither
   * does. `onEvent` hears of it after the commit.
   */
  async write(trx: Kysely<AnyDB>, draft: EventDraft): Promise<SecurityEvent> {
    const row = this.rowOf(draft);
    await this.store.insert(trx, row);
    afterCommit(trx, () => this.committed(row));
    return eventOf(row);
  }

  /** Records a refused attempt once its answer is on its way: nothing is written before the answer, a failure is logged. */
  later(draft: EventDraft): void {
    const row = this.rowOf(draft);
    this.track(
      afterAnswer().then(async () => {
        await this.store.insert(this.store.database.db, row);
        this.committed(row);
      }),
    );
  }

  /**
   * The id of an event at `at`: lower-case hex of the time, this log's sequence and random bytes.
   * Pages are ordered by time, then id, so of two events in one millisecond the later one comes
   * first, and a page's cursor stays put while events arrive (hex sorts alike under any collation).
   */
  private idAt(at: number): string {
    this.sequence = (this.sequence + 1) % 0x1_0000_0000;
    const time = Math.max(0, Math.min(at, 0xffff_ffff_ffff)).toString(16).padStart(12, "0");
    return `${time}${this.sequence.toString(16).padStart(8, "0")}${randomBytes(4).toString("hex")}`;
  }

  private rowOf(draft: EventDraft): EventRow {
    const at = this.options.now();
    return {
      id: this.idAt(at),
      at,
      type: draft.type,
      userId: draft.userId ?? null,
      actorId: draft.actorId ?? null,
      email: oneLine(draft.email),
      address: oneLine(draft.address),
      userAgent: oneLine(draft.userAgent)?.slice(0, MAX_EVENT_USER_AGENT_LENGTH) ?? null,
      sessionId: draft.sessionId ?? null,
      detail: draft.detail ? oneLineDetail(draft.detail) : {},
    };
  }

  private committed(row: EventRow): void {
    const listener = this.options.onEvent;
    if (listener) {
      const event = eventOf(row);
      this.track(
        afterAnswer()
          .then(() => listener(event))
          .catch((cause: unknown) => {
            throw new Error(`domain-auth: onEvent failed for the ${row.type} event ${row.id}`, { cause });
          }),
      );
    }
    this.sweepSoon();
  }

  /** Purges old events after the answer, at most once every {@link SWEEP_INTERVAL_MS}. */
  private sweepSoon(): void {
    const now = this.options.now();
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    this.track(afterAnswer().then(() => this.purgeExpired().then(() => {})));
  }

  private track(task: Promise<void>): void {
    const tracked: Promise<void> = task.catch((error: unknown) => this.options.onError(error)).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /**
   * Deletes the events older than the retention, oldest first, in bounded batches.
   * @returns how many were deleted.
   */
  async purgeExpired(): Promise<number> {
    const before = this.options.now() - this.options.retentionDays * DAY_MS;
    let deleted = 0;
    for (let batch = 0; batch < MAX_SWEEP_BATCHES; batch++) {
      const count = await this.store.purge(before, SWEEP_BATCH);
      deleted += count;
      if (count < SWEEP_BATCH) break;
    }
    return deleted;
  }

  /** A page of events, newest first, with the cursor of the next page when there is one. */
  async page(query: EventQuery): Promise<EventPage> {
    const rows = await this.store.page({ ...query, limit: query.limit + 1 });
    const items = rows.slice(0, query.limit);
    const last: EventPosition | undefined = items.at(-1);
    return { items: items.map(eventOf), nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  }

  /** Waits until what runs after answers (refused attempts, `onEvent`, purges) is done, or `timeoutMs` passed. */
  async settle(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, deadline - Date.now());
      });
      await Promise.race([Promise.allSettled([...this.pending]), timeout]);
      clearTimeout(timer);
    }
  }
}
