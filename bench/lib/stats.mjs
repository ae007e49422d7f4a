// Small statistics and formatting helpers shared by the benchmarks.

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The q-quantile (0 ≤ q ≤ 1) of a list of numbers, nearest rank. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** A number with thousands separators and a fixed count of decimals. */
export function formatNumber(value, decimals = 0) {
  if (!Number.isFinite(value)) return "–";
  return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Milliseconds with a sensible precision. */
export function formatMs(value) {
  if (!Number.isFinite(value)) return "–";
  if (value < 1) return `${value.toFixed(3)} ms`;
  if (value < 10) return `${value.toFixed(2)} ms`;
  if (value < 100) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(0)} ms`;
}

/** A ratio such as `5.3×`. */
export function formatRatio(value) {
  if (!Number.isFinite(value)) return "–";
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)}×`;
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
