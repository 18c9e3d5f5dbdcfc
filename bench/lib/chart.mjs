// chart.svg: one panel of horizontal bars per figure, hand-written SVG (no
// plotting dependency). Bars in a panel share a linear scale, so a 20× gap
// looks like one.
import { formatBytes, formatMillis, formatRate } from "./format.mjs";

const WIDTH = 860;
const LABEL_WIDTH = 250;
const BAR_WIDTH = 470;
const ROW = 22;
const PANEL_GAP = 26;
const COLOURS = { ours: "#0f766e", official: "#c2410c", baseline: "#64748b" };

const PANELS = [
  { title: "In-process tool calls, plain (calls/s)", pick: (r) => r.group === "inproc.plain", value: (r) => r.median, format: formatRate },
  { title: "In-process tool calls, full MRTR (calls/s)", pick: (r) => r.group === "inproc.mrtr", value: (r) => r.median, format: formatRate },
  { title: "2025 path in process, plain (calls/s)", pick: (r) => r.group === "legacy.inproc.plain", value: (r) => r.median, format: formatRate },
  { title: "2025 path in process, one elicitation per call (calls/s)", pick: (r) => r.group === "legacy.inproc.elicit", value: (r) => r.median, format: formatRate },
  { title: "Streamable HTTP, plain (calls/s)", pick: (r) => r.group === "http.plain", value: (r) => r.median, format: formatRate },
  { title: "Streamable HTTP, full MRTR (calls/s)", pick: (r) => r.group === "http.mrtr", value: (r) => r.median, format: formatRate },
  {
    title: "2025 path over Streamable HTTP with sessions, plain (calls/s)",
    pick: (r) => r.group === "legacy.http.plain",
    value: (r) => r.median,
    format: formatRate,
  },
  {
    title: "2025 path over Streamable HTTP with sessions, one elicitation per call (calls/s)",
    pick: (r) => r.group === "legacy.http.elicit",
    value: (r) => r.median,
    format: formatRate,
  },
  { title: "Seal + verify of a 300-byte state (ops/s)", pick: (r) => r.group === "seal", value: (r) => r.median, format: formatRate },
  { title: "Validate tools/call request + result (ops/s)", pick: (r) => r.group === "validate", value: (r) => r.median, format: formatRate },
  { title: "Peak RSS, the same in-process MRTR calls, c=16 (lower is better)", pick: (r) => r.group === "rss", value: (r) => r.medianRss, format: formatBytes },
  {
    title: "Cold start above bare node: import, connect in process, one call (ms, lower is better)",
    pick: (r) => r.group === "coldstart",
    value: (r) => Math.max(0, r.median),
    format: (_, r) => formatMillis(r.median),
  },
  {
    title: "Heap growth, 10,000 pending exchanges (lower is better)",
    pick: (r) => r.group === "pending",
    value: (r) => Math.max(0, r.median),
    format: (_, r) => formatBytes(r.median),
  },
];

/**
 * @param {{ environment: object, rows: object[] }} summary
 * @returns {string} a standalone SVG document
 */
export function renderChart({ environment, rows }) {
  const parts = [];
  let y = 40;
  for (const panel of PANELS) {
    const panelRows = rows.filter((row) => panel.pick(row));
    if (panelRows.length === 0) continue;
    parts.push(`<text x="16" y="${y}" class="title">${escapeXml(panel.title)}</text>`);
    y += 10;
    const measured = panelRows.filter((row) => !row.error).map((row) => panel.value(row));
    const max = Math.max(1e-9, ...measured);
    for (const row of panelRows) {
      const label = shortLabel(row);
      parts.push(`<text x="${LABEL_WIDTH - 8}" y="${y + 15}" class="label" text-anchor="end">${escapeXml(label)}</text>`);
      if (row.error) {
        parts.push(`<text x="${LABEL_WIDTH + 4}" y="${y + 15}" class="value">did not run</text>`);
      } else {
        const value = panel.value(row);
        const width = Math.max(1, (value / max) * BAR_WIDTH);
        parts.push(`<rect x="${LABEL_WIDTH}" y="${y + 3}" width="${width.toFixed(1)}" height="${ROW - 6}" fill="${COLOURS[row.side] ?? COLOURS.baseline}"/>`);
        parts.push(`<text x="${(LABEL_WIDTH + width + 6).toFixed(1)}" y="${y + 15}" class="value">${escapeXml(panel.format(value, row))}</text>`);
      }
      y += ROW;
    }
    y += PANEL_GAP;
  }
  const legend = Object.entries({ ours: "mcp-roundtrip", official: "official SDK 2.4.0", baseline: "baseline" })
    .map(
      ([side, name], i) =>
        `<rect x="${16 + i * 170}" y="${y - 8}" width="12" height="12" fill="${COLOURS[side]}"/><text x="${34 + i * 170}" y="${y + 2}" class="label">${name}</text>`,
    )
    .join("");
  y += 14;
  const footer = `<text x="16" y="${y + 8}" class="note">${escapeXml(`${environment.profile} profile · median of ${environment.reps} · node ${environment.node} · ${environment.cpu} · ${environment.date}`)}</text>`;
  const height = y + 20;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">`,
    "<style>.title{font-size:14px;font-weight:600;fill:#111827}.label{font-size:12px;fill:#374151}.value{font-size:12px;fill:#111827}.note{font-size:11px;fill:#6b7280}</style>",
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="20" class="title">mcp-roundtrip vs @modelcontextprotocol/server + client 2.4.0</text>`,
    ...parts,
    legend,
    footer,
    "</svg>",
    "",
  ].join("\n");
}

/** "inproc.mrtr.official2026.c16" → "official 2026, c=16". */
function shortLabel(row) {
  const names = {
    ours: "mcp-roundtrip",
    official: "official",
    official2026: "official 2026 (fetch shim)",
    official2025: "official 2025 (in-memory)",
    echo: "bare node:http echo",
    stateful: "stateful Map server",
  };
  const [first, second, third, fourth] = row.id.split(".");
  if (first === "coldstart")
    return { ours: "mcp-roundtrip (2026-07-28)", ours2025: "mcp-roundtrip pinned to 2025-11-25", official: "official (InMemoryTransport)" }[second] ?? second;
  if (first === "legacy") {
    const who = fourth === "ours" ? names.ours : names.official;
    return `${who}, c=${row.concurrency}`;
  }
  if (row.group === "rss") return row.side === "ours" ? "mcp-roundtrip" : names.official2026;
  if (row.group === "seal" || row.group === "validate" || row.group === "pending") {
    const detail = row.id.split(".").slice(1).join(" ");
    return detail
      .replace(/^ours /, "mcp-roundtrip ")
      .replace(/^ours$/, "mcp-roundtrip")
      .replace(/^official$/, "official")
      .replace(/^stateful$/, names.stateful);
  }
  const who = second === "echo" ? names.echo : second === "echo-undici" ? `${names.echo}, global fetch` : (names[third] ?? third);
  return row.concurrency ? `${who}, c=${row.concurrency}` : who;
}

function escapeXml(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
