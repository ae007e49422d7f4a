"use client";

import { type RefObject, useEffect, useId, useRef, useState } from "react";
import { type ChartLayout, chartLayout, yOf } from "@/lib/domain-auth/chart-layout";
import type { AuthView } from "@/lib/domain-auth/domain-view";
import {
  axisTicks,
  bucketLabel,
  bucketName,
  type EventSummary,
  type EventSummaryWindow,
  type SummaryBucket,
  summaryTotals,
  useEventSummary,
} from "@/lib/domain-auth/event-summary";
import { FormError } from "./form-error";

/** The windows the switch offers, with their names. */
const WINDOWS: readonly { readonly value: EventSummaryWindow; readonly label: string; readonly span: string }[] = [
  { value: "24h", label: "24 hours", span: "the last 24 hours" },
  { value: "7d", label: "7 days", span: "the last 7 days" },
];

/** The chart's width before it is measured: the `viewBox` scales it to its box until then. */
const DEFAULT_WIDTH = 640;

/** The width of an element in CSS pixels, followed as it changes (`fallback` until measured). */
function useWidth(fallback: number): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

const plural = (count: number, one: string, many: string) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

/** What the chart shows, in a sentence or two: the totals and the busiest bucket of failures. */
function chartDescription(summary: EventSummary, span: string): string {
  const totals = summaryTotals(summary.buckets);
  const worst = summary.buckets.reduce<SummaryBucket | null>(
    (most, bucket) => (most === null || bucket.failures > most.failures ? bucket : most),
    null,
  );
  const peak =
    worst && worst.failures > 0
      ? ` Most failed attempts: ${worst.failures.toLocaleString()} in ${bucketName(worst.start, summary.bucket)}.`
      : "";
  return `${plural(totals.signIns, "sign-in", "sign-ins")} and ${plural(totals.failures, "failed attempt", "failed attempts")} over ${span}, per ${summary.bucket}.${peak}`;
}

/** The count axis (its lines and values) and the time axis' labels. */
function ChartAxes({ layout, summary }: { readonly layout: ChartLayout; readonly summary: EventSummary }) {
  const { plot } = layout;
  const count = summary.buckets.length;
  return (
    <g className="da-chart-axes">
      {layout.ticks.map((tick) => (
        <g key={tick}>
          <line className="da-chart-grid" x1={plot.left} x2={plot.left + plot.width} y1={yOf(layout, tick)} y2={yOf(layout, tick)} />
          <text x={plot.left - 6} y={yOf(layout, tick)} textAnchor="end" dominantBaseline="middle">
            {tick.toLocaleString()}
          </text>
        </g>
      ))}
      {summary.buckets.map((bucket, index) =>
        (count - 1 - index) % layout.labelEvery === 0 ? (
          <text key={bucket.start} x={plot.left + (index + 0.5) * layout.slot} y={plot.top + plot.height + 18} textAnchor="middle">
            {bucketLabel(bucket.start, summary.bucket)}
          </text>
        ) : null,
      )}
    </g>
  );
}

/** Two bars a bucket, sign-ins then failed attempts, each with its numbers on hover. */
function ChartBars({ layout, summary }: { readonly layout: ChartLayout; readonly summary: EventSummary }) {
  const base = yOf(layout, 0);
  const height = (value: number) => (value === 0 ? 0 : Math.max(2, base - yOf(layout, value)));
  return (
    <g>
      {summary.buckets.map((bucket, index) => {
        const middle = layout.plot.left + (index + 0.5) * layout.slot;
        const signIns = height(bucket.signIns);
        const failures = height(bucket.failures);
        return (
          <g key={bucket.start}>
            <title>{`${bucketName(bucket.start, summary.bucket)}: ${plural(bucket.signIns, "sign-in", "sign-ins")}, ${plural(bucket.failures, "failed attempt", "failed attempts")}`}</title>
            <rect
              className="da-chart-hover"
              x={middle - layout.slot / 2}
              y={layout.plot.top}
              width={layout.slot}
              height={layout.plot.height}
            />
            <rect
              className="da-chart-sign-ins"
              x={middle - layout.bar - 0.5}
              y={base - signIns}
              width={layout.bar}
              height={signIns}
              rx={1}
            />
            <rect className="da-chart-failures" x={middle + 0.5} y={base - failures} width={layout.bar} height={failures} rx={1} />
          </g>
        );
      })}
    </g>
  );
}

/**
 * The chart: an SVG drawn to its measured width (the `viewBox` scales it to 100 % of its box), a
 * picture to assistive technology named by its title and summed up by its description.
 */
function ActivityChart({ summary, span }: { readonly summary: EventSummary; readonly span: string }) {
  const titleId = useId();
  const descriptionId = useId();
  const [box, width] = useWidth(DEFAULT_WIDTH);
  const max = summary.buckets.reduce((most, bucket) => Math.max(most, bucket.signIns, bucket.failures), 0);
  const longest = summary.buckets.reduce((most, bucket) => Math.max(most, bucketLabel(bucket.start, summary.bucket).length), 0);
  const layout = chartLayout(width, summary.buckets.length, axisTicks(max), longest);
  return (
    <div ref={box} className="da-chart">
      <svg viewBox={`0 0 ${layout.width} ${layout.height}`} width="100%" role="img" aria-labelledby={`${titleId} ${descriptionId}`}>
        <title id={titleId}>{`Sign-ins and failed attempts per ${summary.bucket}, ${span}`}</title>
        <desc id={descriptionId}>{chartDescription(summary, span)}</desc>
        <ChartAxes layout={layout} summary={summary} />
        <ChartBars layout={layout} summary={summary} />
        <line
          className="da-chart-baseline"
          x1={layout.plot.left}
          x2={layout.plot.left + layout.plot.width}
          y1={yOf(layout, 0)}
          y2={yOf(layout, 0)}
        />
      </svg>
    </div>
  );
}

/** The chart's numbers as a table, behind "Show as table". */
function ChartTable({ summary, span }: { readonly summary: EventSummary; readonly span: string }) {
  return (
    <details className="da-chart-details">
      <summary>Show as table</summary>
      <div className="da-table-wrap">
        <table>
          <caption className="da-visually-hidden">{`Sign-ins and failed attempts per ${summary.bucket}, ${span}`}</caption>
          <thead>
            <tr>
              <th scope="col">{summary.bucket === "hour" ? "Hour" : "Day"}</th>
              <th scope="col" className="da-number">
                Sign-ins
              </th>
              <th scope="col" className="da-number">
                Failed attempts
              </th>
            </tr>
          </thead>
          <tbody>
            {summary.buckets.map((bucket) => (
              <tr key={bucket.start}>
                <th scope="row">{bucketName(bucket.start, summary.bucket)}</th>
                <td className="da-number">{bucket.signIns.toLocaleString()}</td>
                <td className="da-number">{bucket.failures.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** The client addresses with the most failed attempts in the window: address, failures, the latest. */
function FailingAddresses({ summary, span }: { readonly summary: EventSummary; readonly span: string }) {
  const headingId = useId();
  const rows = summary.topFailingAddresses;
  return (
    <section className="da-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Most failed attempts</h2>
      {rows.length === 0 ? (
        <p>No failed sign-in attempts in {span}.</p>
      ) : (
        <div className="da-table-wrap">
          <table>
            <caption className="da-visually-hidden">{`Client addresses with the most failed sign-in attempts in ${span}`}</caption>
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col" className="da-number">
                  Failures
                </th>
                <th scope="col">Last attempt</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.address}>
                  <th scope="row" className="da-chart-address">
                    {row.address}
                  </th>
                  <td className="da-number">{row.failures.toLocaleString()}</td>
                  <td>
                    <time dateTime={row.lastAt}>
                      {new Date(row.lastAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
                    </time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The switch between the windows: two buttons, the one on show pressed. */
function WindowSwitch({ value, onChange }: { readonly value: EventSummaryWindow; readonly onChange: (value: EventSummaryWindow) => void }) {
  return (
    <fieldset className="da-segmented">
      <legend className="da-visually-hidden">Period</legend>
      {WINDOWS.map((period) => (
        <button
          key={period.value}
          type="button"
          className="da-button"
          aria-pressed={period.value === value}
          onClick={() => onChange(period.value)}
        >
          {period.label}
        </button>
      ))}
    </fieldset>
  );
}

/**
 * "Sign-ins" on the admin's Activity page (setup role, `GET events/summary`): a chart of sign-ins and
 * failed attempts per hour of the last 24 hours or per day of the last 7, its numbers as a table,
 * then the addresses with the most failed attempts.
 */
export function ActivitySummary({ auth }: { readonly auth: Pick<AuthView, "segment"> }) {
  const headingId = useId();
  const [period, setPeriod] = useState<EventSummaryWindow>("24h");
  const { summary, error, loading } = useEventSummary(auth, period);
  const span = WINDOWS.find((each) => each.value === (summary?.window ?? period))?.span ?? "";
  const totals = summary ? summaryTotals(summary.buckets) : null;
  return (
    <>
      <section className="da-card" aria-labelledby={headingId} aria-busy={loading}>
        <div className="da-section-head">
          <h2 id={headingId}>Sign-ins</h2>
          <WindowSwitch value={period} onChange={setPeriod} />
        </div>
        <FormError error={error} />
        {summary && totals ? (
          <>
            <ul className="da-chart-legend">
              <li>
                <span className="da-chart-swatch da-chart-sign-ins" aria-hidden="true" />
                Sign-ins <strong>{totals.signIns.toLocaleString()}</strong>
              </li>
              <li>
                <span className="da-chart-swatch da-chart-failures" aria-hidden="true" />
                Failed attempts <strong>{totals.failures.toLocaleString()}</strong>
              </li>
            </ul>
            <ActivityChart summary={summary} span={span} />
            <ChartTable summary={summary} span={span} />
          </>
        ) : error ? null : (
          <p className="da-field-hint">Loading…</p>
        )}
      </section>
      {summary ? <FailingAddresses summary={summary} span={span} /> : null}
    </>
  );
}
