import { apiPaths, type ErrorBody, type EventSummary, type EventSummaryWindow } from "@domain-auth/core/policy";
import { callApi } from "./api";
import type { AuthView } from "./domain-view";
import { useLoaded } from "./use-loaded";

export type { EventSummary, EventSummaryWindow };

/** One bucket of the summary: its start, sign-ins and failed attempts. */
export type SummaryBucket = EventSummary["buckets"][number];

/** The summary of a window as loaded: `summary` is the last answer (of another window while `loading`). */
export interface LoadedSummary {
  readonly summary: EventSummary | null;
  readonly error: ErrorBody | null;
  readonly loading: boolean;
}

/**
 * The path of the activity summary (setup role): sign-ins and failed attempts per hour or day.
 * @example eventSummaryPath({ segment: "user" }, "7d") // "/api/user/events/summary?window=7d"
 */
export function eventSummaryPath(auth: Pick<AuthView, "segment">, period: EventSummaryWindow): string {
  return `${apiPaths(auth).eventSummary}?${new URLSearchParams({ window: period })}`;
}

/** Loads `GET events/summary?window=` (the setup role's): the last summary stays on show while another window loads. */
export function useEventSummary(auth: Pick<AuthView, "segment">, period: EventSummaryWindow): LoadedSummary {
  const path = eventSummaryPath(auth, period);
  const loaded = useLoaded(path, () => callApi<EventSummary>(path));
  const answer = loaded.value;
  return { summary: answer?.ok ? answer.data : null, error: answer && !answer.ok ? answer.error : null, loading: loaded.loading };
}

/** The sums of a summary's buckets. */
export function summaryTotals(buckets: readonly SummaryBucket[]): { readonly signIns: number; readonly failures: number } {
  return buckets.reduce((sum, bucket) => ({ signIns: sum.signIns + bucket.signIns, failures: sum.failures + bucket.failures }), {
    signIns: 0,
    failures: 0,
  });
}

/**
 * The values of a count axis from 0: 1, 2 or 5 times a power of ten apart, at most 5 steps up to
 * the first at or above `max` (0 to 1 when nothing was counted).
 * @example axisTicks(17) // [0, 5, 10, 15, 20]
 */
export function axisTicks(max: number): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough && candidate >= 1) ?? power * 10;
  const whole = Math.max(1, Math.round(step));
  return Array.from({ length: Math.ceil(max / whole) + 1 }, (_, index) => index * whole);
}

/**
 * A bucket's start as its axis label: the hour in the reader's time (`2 PM`, `14`), or the UTC day (`Mon 23`)
 * as the summary counts days.
 */
export function bucketLabel(start: string, bucket: EventSummary["bucket"]): string {
  const date = new Date(start);
  if (bucket === "hour") return date.toLocaleTimeString(undefined, { hour: "numeric" });
  const part = (options: Intl.DateTimeFormatOptions) => date.toLocaleDateString(undefined, { ...options, timeZone: "UTC" });
  return `${part({ weekday: "short" })} ${part({ day: "numeric" })}`;
}

/** A bucket in full, for the table and the chart's tooltips: `Nov 23, 2:00 PM – 3:00 PM`, or `Mon, Nov 23 (UTC)`. */
export function bucketName(start: string, bucket: EventSummary["bucket"]): string {
  const date = new Date(start);
  if (bucket === "day")
    return `${date.toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" })} (UTC)`;
  const end = new Date(date.getTime() + 3_600_000);
  const time = (value: Date) => value.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
  return `${date.toLocaleDateString(undefined, { day: "numeric", month: "short" })}, ${time(date)} – ${time(end)}`;
}
