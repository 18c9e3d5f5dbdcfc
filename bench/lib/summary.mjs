// Turns raw repetitions into the figures the report prints: a median and
// spread per workload, a paired ratio per comparison, a verdict per budget.
import { comparisons, limits } from "../budgets.mjs";
import { median, pairedRatio, spread } from "./stats.mjs";
import { CLIENT_BOUND_SHARE } from "./raw-client.mjs";

/** The granularity of a process's resident set on the platforms we run on. */
const RSS_PAGE_BYTES = 4096;

/**
 * @param {{ workloads: object[], samples: Map<string, object[]>, failures: Map<string, string>, environment: object }} run
 * @returns {{ environment: object, rows: object[], ratios: object[], budgets: object[] }}
 */
export function summarise({ workloads, samples, failures, environment }) {
  const rows = workloads.map((spec) => {
    const reps = samples.get(spec.id) ?? [];
    const base = { id: spec.id, group: spec.group, label: spec.label, side: spec.side, unit: spec.unit, concurrency: spec.concurrency, roundTrips: spec.roundTrips };
    if (failures.has(spec.id) || reps.length === 0) {
      return { ...base, error: failures.get(spec.id) ?? "no repetition ran" };
    }
    const values = reps.map((r) => r.value);
    const rss = reps.map((r) => r.maxRssBytes);
    const cpu = reps.every((r) => Number.isFinite(r.cpuMicrosPerOp)) ? reps.map((r) => r.cpuMicrosPerOp) : undefined;
    const perItem = reps.every((r) => Number.isFinite(r.perItemBytes)) ? reps.map((r) => r.perItemBytes) : undefined;
    const startCpu = reps.every((r) => Number.isFinite(r.cpuMs)) ? reps.map((r) => r.cpuMs) : undefined;
    const serverCpu = reps.every((r) => Number.isFinite(r.serverCpuMicrosPerOp)) ? reps.map((r) => r.serverCpuMicrosPerOp) : undefined;
    const awakeServerCpu = reps.every((r) => Number.isFinite(r.awakeServerCpuMicrosPerOp)) ? reps.map((r) => r.awakeServerCpuMicrosPerOp) : undefined;
    const clientShare = reps.every((r) => Number.isFinite(r.clientCpuShare)) ? reps.map((r) => r.clientCpuShare) : undefined;
    const latencyP50 = reps.every((r) => Number.isFinite(r.latencyP50Ms)) ? reps.map((r) => r.latencyP50Ms) : undefined;
    // RSS moves in pages: growth under one page reads as one page, so a short
    // run where one side grew nothing still gives a finite ratio.
    const growth = reps.every((r) => Number.isFinite(r.setupRssBytes)) ? reps.map((r) => Math.max(RSS_PAGE_BYTES, r.maxRssBytes - r.setupRssBytes)) : undefined;
    // A flag a custom workload raises in any repetition stays raised for the row.
    const flagged = reps.filter((r) => r.flags);
    const flags =
      flagged.length === 0 ? undefined : Object.fromEntries(Object.keys(flagged[0].flags).map((name) => [name, flagged.some((r) => r.flags[name] === true)]));
    const extras = coldStartExtras(reps);
    const warmups = reps.filter((r) => r.warmup).map((r) => r.warmup);
    const warmup = warmups.length === 0 ? undefined : { medianMs: median(warmups.map((w) => w.ms)), capped: warmups.filter((w) => !w.plateaued).length };
    return {
      ...base,
      reps: reps.length,
      median: median(values),
      ...spread(values),
      values,
      rss,
      medianRss: median(rss),
      rssGrowth: growth,
      medianRssGrowth: growth && median(growth),
      cpu,
      medianCpu: cpu && median(cpu),
      medianPerItem: perItem && median(perItem),
      startCpu,
      medianStartCpu: startCpu && median(startCpu),
      serverCpu,
      medianServerCpu: serverCpu && median(serverCpu),
      awakeServerCpu,
      medianAwakeServerCpu: awakeServerCpu && median(awakeServerCpu),
      clientShare,
      medianClientShare: clientShare && median(clientShare),
      // The load client used most of its core: it, not the server, may have set the pace, so server-CPU ratios are not judged.
      clientBound: serverCpu !== undefined && clientShare !== undefined && median(clientShare) > CLIENT_BOUND_SHARE,
      latencyP50,
      medianLatencyP50: latencyP50 && median(latencyP50),
      warmup,
      // Measured in one window with the floor it is judged against (bench/lib/interleave.mjs).
      ...(reps.some((r) => r.interleavedWith) && { interleaved: true }),
      ...(flags && { flags }),
      ...extras,
    };
  });
  return { environment, rows, ...judge(rows) };
}

/**
 * The paired ratios and budget verdicts over a set of rows: those of one run,
 * or a previous run's rows with some measured again (`--update`).
 * @param {object[]} rows
 * @returns {{ ratios: object[], budgets: object[] }}
 */
export function judge(rows) {
  const byId = new Map(rows.map((row) => [row.id, row]));

  const ratios = [];
  for (const comparison of comparisons()) {
    const top = byId.get(comparison.numerator);
    const bottom = byId.get(comparison.denominator);
    if (!top || !bottom) continue;
    const entry = { ...comparison };
    const field =
      {
        maxRssBytes: "rss",
        rssGrowthBytes: "rssGrowth",
        cpuMicrosPerOp: "cpu",
        serverCpuMicrosPerOp: "serverCpu",
        cpuAboveMs: "cpuAboveMs",
        cpuMs: "startCpu",
        latencyP50Ms: "latencyP50",
      }[comparison.field] ?? "values";
    if (top.error || bottom.error) {
      entry.unavailable = `${top.error ? comparison.numerator : comparison.denominator} did not run`;
    } else if (field === "serverCpu" && (top.clientBound || bottom.clientBound)) {
      const bound = top.clientBound ? comparison.numerator : comparison.denominator;
      entry.unavailable = `client-bound: the load client of ${bound} used more than ${Math.round(CLIENT_BOUND_SHARE * 100)} % of its core, so the server did not set the pace`;
    } else if (!top[field] || !bottom[field]) {
      entry.unavailable = `no ${comparison.field} figures`;
    } else if (bottom[field].some((v) => !(v > 0))) {
      // A figure at or below zero (CPU above bare node within noise, say) has no
      // meaningful ratio: say so rather than lose the rest of the run.
      entry.unavailable = `${comparison.denominator} has a ${comparison.field ?? "value"} of 0 or less in a repetition`;
    } else {
      const scale = comparison.numeratorScale ?? 1;
      const ratioOf = (name) =>
        pairedRatio(
          top[name].map((v) => v * scale),
          bottom[name],
        );
      if (field === "serverCpu" && top.awakeServerCpu && bottom.awakeServerCpu) {
        // Judged with the load client kept awake (bench/lib/measure.mjs, awakeWindow); the sleeping client's ratio is reported beside it.
        entry.ratio = ratioOf("awakeServerCpu");
        entry.asleepRatio = ratioOf("serverCpu");
      } else {
        entry.ratio = ratioOf(field);
        // A row measured before the awake window existed (an `--update` beside older rows): said so in the report.
        if (field === "serverCpu") entry.asleepOnly = true;
      }
    }
    ratios.push(entry);
  }

  const budgets = [];
  for (const ratio of ratios) {
    if (ratio.atLeast === undefined && ratio.atMost === undefined) continue;
    const met = ratio.atLeast !== undefined ? ratio.ratio >= ratio.atLeast : ratio.ratio <= ratio.atMost;
    budgets.push({
      id: ratio.id,
      label: ratio.label,
      budget: ratio.atLeast !== undefined ? `≥ ${ratio.atLeast}×` : `≤ ${ratio.atMost}×`,
      figure: ratio.ratio,
      ...(ratio.asleepRatio !== undefined && { asleepFigure: ratio.asleepRatio }),
      ...(ratio.asleepOnly && { asleepOnly: true }),
      reason: ratio.reason,
      status: ratio.unavailable ? (ratio.unavailable.startsWith("client-bound") ? "client-bound (not judged)" : "unavailable") : met ? "met" : "missed",
    });
  }
  for (const limit of limits()) {
    const row = byId.get(limit.workload);
    if (!row) continue;
    if (limit.flag !== undefined) {
      const raised = row.flags?.[limit.flag];
      budgets.push({
        id: limit.id,
        label: limit.label,
        budget: `${limit.flag}: no`,
        figure: raised,
        reason: limit.reason,
        unit: "flag",
        status: row.error || raised === undefined ? "unavailable" : raised ? "missed" : "met",
      });
      continue;
    }
    // `field: "perItem"` reads the row's median per stream, session or exchange rather than its total.
    const figure = limit.field === "perItem" ? row.medianPerItem : row.median;
    const met = limit.atMost !== undefined ? figure <= limit.atMost : figure < limit.below;
    budgets.push({
      id: limit.id,
      label: limit.label,
      budget: limit.atMost !== undefined ? `≤ ${limit.atMost} ${limit.unit}` : `< ${limit.below} ${limit.unit}`,
      figure,
      unit: limit.unit,
      reason: limit.reason,
      status: row.error ? "unavailable" : met ? "met" : "missed",
    });
  }
  return { ratios, budgets };
}

/** Medians of what a cold-start repetition reports beside its figure: CPU time above bare node, the whole start, bare node's, the modules loaded. */
function coldStartExtras(reps) {
  if (!reps.every((r) => Number.isFinite(r.startMs) && Number.isFinite(r.bareMs))) return {};
  return {
    cpuAboveMs: reps.every((r) => Number.isFinite(r.cpuAboveMs)) ? reps.map((r) => r.cpuAboveMs) : undefined,
    medianCpuAboveMs: reps.every((r) => Number.isFinite(r.cpuAboveMs)) ? median(reps.map((r) => r.cpuAboveMs)) : undefined,
    medianStartMs: median(reps.map((r) => r.startMs)),
    medianBareMs: median(reps.map((r) => r.bareMs)),
    modulesLoaded: median(reps.map((r) => r.modulesLoaded)),
  };
}
