// The run in words: the lines the CLI prints, and the markdown summary
// written beside the chart.
import { MARGIN } from "./stats.js";
import type { DrillReport } from "./run.js";

const mb = (bytes: number | undefined) => (bytes === undefined ? "?" : `${(bytes / 1024 / 1024).toFixed(0)} MB`);
const ms = (value: number) => `${value.toFixed(0)} ms`;

/** The lines printed at the end of a run; the last is the verdict line. */
export function summaryLines(report: DrillReport): string[] {
  const lines = [
    `wall time ${(report.wallMs / 1000).toFixed(1)} s, ${(report.exchanges / (report.wallMs / 1000)).toFixed(0)} exchanges/s; by kind ${JSON.stringify(report.byKind)}`,
    `faults: ${report.faults.map((fault) => `${fault.kind} @${(fault.start / 1000).toFixed(0)}-${(fault.end / 1000).toFixed(0)} s`).join("; ") || "none"}`,
    `retries by kind: ${JSON.stringify(report.retries)}`,
    `HTTP errors the clients saw (503s are the SDK's own retries): ${JSON.stringify(report.statuses)}`,
    `replays: ${report.chaos.replays} spent tokens sent again (${report.chaos.acrossRedisRestart} of them spent before a Redis restart), ${report.chaos.refused} refused (-32602), ${report.chaos.unavailable} answered unavailable, ${report.chaos.accepted} accepted`,
    ...report.phases.map((phase) => `latency ${phase.phase}: p50 ${ms(phase.p50)}, p99 ${ms(phase.p99)} (${phase.exchanges} exchanges)`),
    ...report.memory.warm.map(
      (warm, index) =>
        `instance ${index}: RSS ${mb(warm?.rss)} → ${mb(report.memory.after[index]?.rss)}, handles ${warm?.handles ?? "?"} → ${report.memory.after[index]?.handles ?? "?"}`,
    ),
    `memory and handles back within margin (RSS ≤ ${MARGIN.rssFactor}× warm-up + ${mb(MARGIN.rssExtraBytes)}, handles ≤ warm-up + ${MARGIN.extraHandles}): ${report.memory.withinMargin ? "yes" : "NO"}`,
    ...report.notes,
    ...report.unexpectedExits.map((exit) => `unexpected exit: ${exit}`),
    ...report.problems.map((problem) => `problem: ${problem}`),
    ...report.chaos.acceptedDetails.map((detail) => `replay accepted: ${detail}`),
    report.line,
  ];
  return lines;
}

/** The markdown summary of a run (the chart is `chart.svg` beside it). */
export function markdownSummary(report: DrillReport, command: string): string {
  const { options } = report;
  return [
    "# Drill results",
    "",
    `\`${command}\`: ${report.exchanges.toLocaleString("en")} exchanges, seed ${options.seed}, ${options.users} users (think time 0-${options.thinkMs} ms), ` +
      `${options.cluster ? "a Redis Cluster (3 masters, 3 replicas)" : "one redis-server"}, three instances behind nginx, all on 127.0.0.1. ` +
      `Wall time ${(report.wallMs / 1000).toFixed(0)} s (${(report.exchanges / (report.wallMs / 1000)).toFixed(0)} exchanges/s).`,
    "",
    "```text",
    report.line,
    "```",
    "",
    "![throughput, p99 and errors over time, faults shaded](chart.svg)",
    "",
    "Latency by phase: *calm* is the exchanges that met no fault from start to end; each fault's row is the exchanges that overlapped it (one exchange may count for several).",
    "",
    "| phase | exchanges | p50 | p99 |",
    "|---|---:|---:|---:|",
    ...report.phases.map((phase) => `| ${phase.phase} | ${phase.exchanges} | ${ms(phase.p50)} | ${ms(phase.p99)} |`),
    "",
    `Faults (${report.faults.length}): ${report.faults.map((fault) => `${fault.kind} ${(fault.start / 1000).toFixed(0)}–${(fault.end / 1000).toFixed(0)} s`).join(", ")}.`,
    "",
    `Exchanges by kind: ${Object.entries(report.byKind)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(", ")}.`,
    "",
    "Retries (an exchange that failed during a fault, or within 5 s after it, started again), by kind:",
    "",
    ...Object.entries(report.retries)
      .sort((a, b) => b[1] - a[1])
      .map(([kind, count]) => `- ${kind}: ${count}`),
    "",
    `HTTP error statuses the clients saw (the SDK retries a 503 itself): ${JSON.stringify(report.statuses)}.`,
    "",
    `Replays: ${report.chaos.replays} spent tokens sent again (${report.chaos.acrossRedisRestart} of them spent before a Redis restart and sent after it), ${report.chaos.refused} refused with -32602, ${report.chaos.unavailable} answered "temporarily unavailable", ${report.chaos.accepted} accepted.`,
    "",
    "| instance | RSS warm | RSS after | handles warm | handles after |",
    "|---|---:|---:|---:|---:|",
    ...report.memory.warm.map(
      (warm, index) =>
        `| ${index} | ${mb(warm?.rss)} | ${mb(report.memory.after[index]?.rss)} | ${warm?.handles ?? "?"} | ${report.memory.after[index]?.handles ?? "?"} |`,
    ),
    "",
    ...report.notes.map((note) => `- ${note}`),
    "",
    `Margin: RSS ≤ ${MARGIN.rssFactor}× warm-up + ${mb(MARGIN.rssExtraBytes)}, handles ≤ warm-up + ${MARGIN.extraHandles} (an instance restarted by a fault is compared with the first process's warm-up): ${report.memory.withinMargin ? "met" : "NOT met"}.`,
    "",
  ].join("\n");
}
