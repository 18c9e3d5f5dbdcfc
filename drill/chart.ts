// The run as a picture: three panels over time (exchanges completed per
// second, their p99 latency, errors and retries per second), each fault a
// shaded band across all three with its name. Hand-written SVG, like
// bench/lib/chart.mjs (whose bars do not fit a time series).
import type { FaultWindow, Second } from "./metrics.js";

const WIDTH = 960;
const LEFT = 70;
const RIGHT = 20;
const PANEL = 130;
const GAP = 34;
const TOP = 52;
const COLOURS = ["#0f766e", "#c2410c", "#b91c1c"];
const FAULT_COLOURS: Record<string, string> = {
  "instance SIGKILL": "#ef4444",
  "rolling restart": "#3b82f6",
  "key rotation": "#8b5cf6",
  "Redis SIGKILL": "#f59e0b",
  "Redis SIGSTOP 5 s": "#eab308",
  "slow readers": "#14b8a6",
  "proxy latency+resets": "#ec4899",
};

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** The SVG document of a run. */
export function drawChart(title: string, seconds: Second[], faults: FaultWindow[]): string {
  const span = Math.max(1, seconds.length);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (t: number) => LEFT + (t / span) * plotWidth;
  const panels = [
    { name: "exchanges completed per second", values: seconds.map((second) => second.completed), line: true },
    { name: "p99 latency (ms) of the exchanges completed that second", values: seconds.map((second) => second.p99), line: true },
    { name: "errors per second (retried or failed)", values: seconds.map((second) => second.errors), line: false },
  ];
  const legendTop = TOP + panels.length * (PANEL + GAP);
  const kinds = [...new Set(faults.map((fault) => fault.kind))];
  const height = legendTop + 20 + Math.ceil(kinds.length / 4) * 18;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="11">`,
    `<title>Drill: ${escapeXml(title)}; exchanges per second, p99 latency and errors over time, faults shaded</title>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="22" font-size="14" font-weight="600">${escapeXml(title)}</text>`,
  ];
  panels.forEach((panel, index) => {
    const top = TOP + index * (PANEL + GAP);
    const max = Math.max(1, ...panel.values);
    const y = (value: number) => top + PANEL - (value / max) * PANEL;
    for (const fault of faults) {
      const end = Number.isFinite(fault.end) ? fault.end : span * 1000;
      out.push(
        `<rect x="${x(fault.start / 1000).toFixed(1)}" y="${top}" width="${Math.max(1, x(end / 1000) - x(fault.start / 1000)).toFixed(1)}" height="${PANEL}" fill="${FAULT_COLOURS[fault.kind] ?? "#94a3b8"}" fill-opacity="0.13"/>`,
      );
    }
    out.push(`<rect x="${LEFT}" y="${top}" width="${plotWidth}" height="${PANEL}" fill="none" stroke="#cbd5e1"/>`);
    out.push(`<text x="${LEFT}" y="${top - 6}" font-weight="600">${escapeXml(panel.name)}</text>`);
    out.push(`<text x="${LEFT - 6}" y="${top + 10}" text-anchor="end">${Math.round(max)}</text>`);
    out.push(`<text x="${LEFT - 6}" y="${top + PANEL}" text-anchor="end">0</text>`);
    if (panel.line) {
      const points = panel.values.map((value, t) => `${x(t + 0.5).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
      out.push(`<polyline points="${points}" fill="none" stroke="${COLOURS[index]}" stroke-width="1.4"/>`);
    } else {
      const barWidth = Math.max(1, plotWidth / span - 0.5);
      panel.values.forEach((value, t) => {
        if (value > 0)
          out.push(
            `<rect x="${x(t).toFixed(1)}" y="${y(value).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(top + PANEL - y(value)).toFixed(1)}" fill="${COLOURS[index]}"/>`,
          );
      });
    }
  });
  const axis = TOP + panels.length * (PANEL + GAP) - GAP + 14;
  const step = Math.max(1, Math.ceil(span / 12 / 10) * 10);
  for (let t = 0; t <= span; t += step) out.push(`<text x="${x(t).toFixed(1)}" y="${axis}" text-anchor="middle">${t} s</text>`);
  kinds.forEach((kind, index) => {
    const lx = LEFT + (index % 4) * 220;
    const ly = legendTop + 8 + Math.floor(index / 4) * 18;
    out.push(`<rect x="${lx}" y="${ly - 9}" width="12" height="12" fill="${FAULT_COLOURS[kind] ?? "#94a3b8"}" fill-opacity="0.5"/>`);
    out.push(`<text x="${lx + 18}" y="${ly + 1}">${escapeXml(kind)} (${faults.filter((fault) => fault.kind === kind).length}×)</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
