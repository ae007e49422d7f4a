/** Where a bar chart's parts go, in the units of its `viewBox` (the pixels of its width once measured). */
export interface ChartLayout {
  readonly width: number;
  readonly height: number;
  /** The plot area: left of it the count axis, under it the time axis. */
  readonly plot: { readonly left: number; readonly top: number; readonly width: number; readonly height: number };
  /** The width of one bucket's slot, and of each of its bars. */
  readonly slot: number;
  readonly bar: number;
  /** Every how many buckets a time label is written (counted back from the newest), so that labels never touch. */
  readonly labelEvery: number;
  /** The count axis' values, 0 first; the last is the top of the plot. */
  readonly ticks: readonly number[];
}

/** The chart's height, and the room its axes' labels take. */
const HEIGHT = 240;
const MARGIN = { top: 12, right: 8, bottom: 30, leftPerDigit: 7, leftPad: 14 } as const;
/** A label's width per character at the chart's 12px text, with a gap after it. */
const CHARACTER_WIDTH = 7;
const LABEL_GAP = 10;
/** The label intervals preferred, in buckets: whole fractions of a day of hours. */
const LABEL_STEPS = [1, 2, 3, 4, 6, 8, 12] as const;

/**
 * The layout of a chart `width` wide of `count` buckets, two bars each, whose counts go up to the
 * last of `ticks`; `longestLabel` is the length of the longest time label.
 */
export function chartLayout(width: number, count: number, ticks: readonly number[], longestLabel: number): ChartLayout {
  const top = ticks[ticks.length - 1] ?? 1;
  const left = MARGIN.leftPad + String(top).length * MARGIN.leftPerDigit;
  const plot = { left, top: MARGIN.top, width: Math.max(1, width - left - MARGIN.right), height: HEIGHT - MARGIN.top - MARGIN.bottom };
  const slot = plot.width / Math.max(1, count);
  const bar = Math.max(2, Math.min(28, slot * 0.3));
  const needed = Math.max(1, Math.ceil((longestLabel * CHARACTER_WIDTH + LABEL_GAP) / slot));
  const labelEvery = LABEL_STEPS.find((step) => step >= needed) ?? needed;
  return { width, height: HEIGHT, plot, slot, bar, labelEvery, ticks };
}

/** The vertical position of a count in a layout. */
export function yOf(layout: ChartLayout, value: number): number {
  const top = layout.ticks[layout.ticks.length - 1] ?? 1;
  return layout.plot.top + layout.plot.height - (value / top) * layout.plot.height;
}
