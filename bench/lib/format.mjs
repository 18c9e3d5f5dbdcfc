// Number formatting shared by the Markdown report and the chart.

/** 12345.6 → "12,346"; small rates keep one decimal. */
export function formatRate(value) {
  if (!Number.isFinite(value)) return "–";
  return value >= 100 ? Math.round(value).toLocaleString("en-US") : value.toFixed(1);
}

/** Bytes as B, KiB or MiB, signed (heap growth can be negative). */
export function formatBytes(value) {
  if (!Number.isFinite(value)) return "–";
  const magnitude = Math.abs(value);
  if (magnitude >= 2 ** 20) return `${(value / 2 ** 20).toFixed(1)} MiB`;
  if (magnitude >= 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${Math.round(value)} B`;
}

/** A ratio as "12.3×". */
export function formatRatio(value) {
  if (!Number.isFinite(value)) return "–";
  return `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;
}

/** Milliseconds: "92 ms", "8.4 ms". */
export function formatMillis(value) {
  if (!Number.isFinite(value)) return "–";
  return Math.abs(value) >= 10 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
}

/** A row's median in its unit. */
export function formatFigure(value, unit) {
  if (unit === "bytes") return formatBytes(value);
  if (unit === "ms") return formatMillis(value);
  return `${formatRate(value)} ${unit}`;
}

/** Microseconds per operation for an ops/s rate. */
export function formatMicros(perSecond) {
  if (!Number.isFinite(perSecond) || perSecond <= 0) return "–";
  const micros = 1e6 / perSecond;
  return micros >= 100 ? `${Math.round(micros)} µs` : `${micros.toFixed(2)} µs`;
}
