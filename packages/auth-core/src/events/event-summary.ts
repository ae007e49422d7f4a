import { type Kysely, sql } from "kysely";
import { z } from "zod";
import type { AnyDB } from "../store/database.js";
import { EVENT_TABLES } from "../store/event-table.js";
import {
  EVENT_SUMMARY_WINDOWS,
  type EventSummaryWindow,
  FAILED_SIGN_IN_EVENT_TYPES,
  SIGN_IN_EVENT_TYPES,
  TOP_FAILING_ADDRESSES,
} from "./event-types.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const TABLE = EVENT_TABLES.events;

/** How each window is cut: its buckets' unit and length, and how many there are. */
const WINDOWS: Readonly<Record<EventSummaryWindow, { readonly bucket: "hour" | "day"; readonly size: number; readonly count: number }>> = {
  "24h": { bucket: "hour", size: HOUR_MS, count: 24 },
  "7d": { bucket: "day", size: DAY_MS, count: 7 },
};

/** The time a summary covers: `count` buckets of `size` ms from `from` (included) to `to` (excluded), in ms since the epoch. */
export interface SummaryRange {
  readonly window: EventSummaryWindow;
  readonly bucket: "hour" | "day";
  readonly size: number;
  readonly count: number;
  readonly from: number;
  readonly to: number;
}

/**
 * The range of a window at `now`: whole UTC hours (`24h`) or whole UTC days (`7d`), the newest
 * the one that holds `now`, so `to` is the next hour or the next midnight (UTC).
 *
 * @example summaryRange("24h", Date.parse("2026-11-22T10:09:00Z")) // from 2026-11-21T11:00Z to 2026-11-22T11:00Z
 */
export function summaryRange(window: EventSummaryWindow, now: number): SummaryRange {
  const { bucket, size, count } = WINDOWS[window];
  const to = now - (now % size) + size;
  return { window, bucket, size, count, from: to - count * size, to };
}

const dateTime = z.string().meta({ format: "date-time" });
const count = z.number().int().nonnegative();

/** The activity summary (docs/events.md#the-activity-summary), as `GET events/summary` answers it. The OpenAPI document shows this schema. */
export const eventSummarySchema = z
  .object({
    window: z.enum(EVENT_SUMMARY_WINDOWS),
    bucket: z.enum(["hour", "day"]).describe("Each bucket's length: an hour (`24h`) or a UTC day (`7d`)."),
    from: dateTime.describe("The start of the oldest bucket, ISO 8601 (UTC)."),
    to: dateTime.describe("The end of the newest bucket (excluded): the next whole hour, or the next UTC midnight."),
    buckets: z
      .array(
        z.object({
          start: dateTime.describe("The bucket's start, ISO 8601 (UTC)."),
          signIns: count.describe("Sessions started (`login.succeeded`): a sign-in with a second factor counts once."),
          failures: count.describe("Failed sign-in attempts (`login.failed`, `mfa.failed`)."),
        }),
      )
      .describe("Every bucket of the window, oldest first, zeros included: 24 hours or 7 days; the last one holds now."),
    topFailingAddresses: z
      .array(
        z.object({
          address: z.string().describe("The client address, as login throttling counts it."),
          failures: count.describe("Its failed sign-in attempts in the window."),
          lastAt: dateTime.describe("Its latest failed attempt, ISO 8601 (UTC)."),
        }),
      )
      .max(TOP_FAILING_ADDRESSES)
      .describe(
        `The ${TOP_FAILING_ADDRESSES} client addresses with the most failed attempts in the window, most first (then the latest first).`,
      ),
  })
  .describe("Sign-ins and failed sign-in attempts over the last 24 hours or 7 days: counts only, never an event's details.");

/** The activity summary of a window. */
export type EventSummary = z.output<typeof eventSummarySchema>;

const iso = (ms: number) => new Date(ms).toISOString();

/** The events of the range whose type is one of `types`: a range of the `(type, at, id)` index per type. */
function inRange(db: Kysely<AnyDB>, range: SummaryRange, types: readonly string[]) {
  return db
    .selectFrom(TABLE)
    .where("type", "in", [...types])
    .where("at", ">=", range.from)
    .where("at", "<", range.to);
}

/**
 * The sign-ins and failures of each bucket that has any, counted by the database: `at` is whole
 * milliseconds on both dialects, so `at - at % size` is its bucket's start (UTC hours and days
 * start at multiples of their length). The length is written into the statement: bound, SQLite
 * would take it for a real.
 */
export function bucketCountsQuery(db: Kysely<AnyDB>, range: SummaryRange) {
  const start = sql<number>`${sql.ref("at")} - ${sql.ref("at")} % ${sql.lit(range.size)}`;
  const countOf = (types: readonly string[]) =>
    sql<number>`sum(case when ${sql.ref("type")} in (${sql.join(types.map((type) => sql.val(type)))}) then 1 else 0 end)`;
  return inRange(db, range, [...SIGN_IN_EVENT_TYPES, ...FAILED_SIGN_IN_EVENT_TYPES])
    .select([start.as("start"), countOf(SIGN_IN_EVENT_TYPES).as("signIns"), countOf(FAILED_SIGN_IN_EVENT_TYPES).as("failures")])
    .groupBy(start);
}

/** The client addresses with the most failed attempts in the range, most first, then the latest first; events with no address are left out. */
export function topFailingAddressesQuery(db: Kysely<AnyDB>, range: SummaryRange) {
  return inRange(db, range, FAILED_SIGN_IN_EVENT_TYPES)
    .where("address", "is not", null)
    .select(["address", sql<number>`count(*)`.as("failures"), sql<number>`max(${sql.ref("at")})`.as("lastAt")])
    .groupBy("address")
    .orderBy("failures", "desc")
    .orderBy("lastAt", "desc")
    .orderBy("address")
    .limit(TOP_FAILING_ADDRESSES);
}

/**
 * The activity summary of `window` at `now` (ms): two grouped reads of the events table, never
 * its rows; every bucket answered, oldest first, those without events as zeros.
 */
export async function summarizeEvents(db: Kysely<AnyDB>, window: EventSummaryWindow, now: number): Promise<EventSummary> {
  const range = summaryRange(window, now);
  const [counted, addresses] = await Promise.all([bucketCountsQuery(db, range).execute(), topFailingAddressesQuery(db, range).execute()]);
  const byStart = new Map(counted.map((row) => [Number(row.start), row]));
  const buckets = Array.from({ length: range.count }, (_, index) => {
    const start = range.from + index * range.size;
    const row = byStart.get(start);
    return { start: iso(start), signIns: Number(row?.signIns ?? 0), failures: Number(row?.failures ?? 0) };
  });
  return {
    window,
    bucket: range.bucket,
    from: iso(range.from),
    to: iso(range.to),
    buckets,
    topFailingAddresses: addresses.map((row) => ({
      address: String(row.address),
      failures: Number(row.failures),
      lastAt: iso(Number(row.lastAt)),
    })),
  };
}
