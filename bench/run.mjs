// The bench runner: every workload, repetition after repetition, each
// repetition in a fresh worker process; then RESULTS.md and chart.svg.
//   node bench/run.mjs [--smoke [--spawn]] [--reps N] [--only PREFIX[,PREFIX…] [--update]] [--out DIR] [--strict]
// `npm run bench` builds first (scripts/bench.mjs) and runs this with no flags.
// `--smoke` runs every workload once with tiny counts, all in this process
// (fast, for `npm test`); add `--spawn` to use worker processes as a full run does.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { workloads } from "./catalog.mjs";
import { measureInterleaved } from "./lib/interleave.mjs";
import { measureOnce } from "./lib/measure.mjs";
import { judge, summarise } from "./lib/summary.mjs";
import { keptResultsSections } from "./lib/sections.mjs";
import { renderMarkdown } from "./lib/markdown.mjs";
import { renderChart } from "./lib/chart.mjs";
import { CLIENT_CPU, pinned } from "./lib/server-process.mjs";

/** Measurement profiles: `full` for figures, `smoke` to prove the harness runs. */
export const PROFILES = {
  full: {
    reps: 5,
    warmup: { sliceMs: 250, minMs: 1000, maxMs: 10_000, plateauSlices: 6 },
    windowMs: 2000,
    interleaveSliceMs: 250,
    maxOps: 50_000_000,
    pendingCount: 10_000,
    pendingWarmup: 1_000,
    coldStartSpawns: 15,
    parallel: 1,
    timeoutMs: 120_000,
    fixedDeadlineMs: 90_000,
  },
  smoke: {
    reps: 1,
    warmup: { sliceMs: 10, minMs: 10, maxMs: 40, plateauSlices: 2 },
    windowMs: 40,
    interleaveSliceMs: 10,
    maxOps: 2_000,
    pendingCount: 200,
    pendingWarmup: 20,
    coldStartSpawns: 1,
    parallel: 2,
    timeoutMs: 60_000,
    fixedDeadlineMs: 20_000,
    maxFixedOps: 20,
  },
};

const WORKER = fileURLToPath(new URL("./worker.mjs", import.meta.url));

/**
 * Runs the bench and writes its report.
 * @param {object} options
 * @param {boolean} [options.smoke] tiny counts, one repetition: proves the harness, measures nothing
 * @param {boolean} [options.inProcess] run workloads in this process instead of one worker per repetition (smoke only)
 * @param {number} [options.reps] repetitions per workload (at least 5 in a full run)
 * @param {string[]} [options.only] run only workloads whose id starts with one of these
 * @param {boolean} [options.update] keep the other rows of the results.json in `out`, and judge the budgets over both
 * @param {string} [options.out] directory for RESULTS.md, chart.svg and results.json
 * @param {(line: string) => void} [options.log] progress lines
 * @returns {Promise<{ summary: object, failed: string[] }>}
 * @throws {RangeError} when fewer than 5 repetitions, or in-process isolation, are asked of a full run.
 */

export async function runBench({ smoke = false, inProcess = false, reps, only, update = false, out, log = (line) => console.error(line) } = {}) {
  if (update && (!only?.length || !out || smoke)) {
    throw new RangeError(
      "--update measures again the workloads named by --only and keeps every other row of the results.json in --out: pass --only (and not --smoke)",
    );
  }
  const profile = { ...(smoke ? PROFILES.smoke : PROFILES.full) };
  if (reps !== undefined) profile.reps = reps;
  if (!smoke && profile.reps < 5) {
    throw new RangeError(`a full run needs at least 5 repetitions per figure, got ${profile.reps}`);
  }
  if (!smoke && inProcess) {
    throw new RangeError("a full run measures each repetition in its own process; in-process runs are for --smoke only");
  }
  const selected = workloads().filter((w) => !only?.length || only.some((prefix) => w.id.startsWith(prefix)));
  if (selected.length === 0) throw new RangeError(`no workload matches --only ${only.join(",")}`);

  const environment = describeEnvironment(profile, smoke);
  environment.isolation = inProcess ? "one process for every workload (peak RSS is not per workload)" : "one worker process per repetition";
  const measure = inProcess ? (unit) => measureHere(unit, profile) : (unit) => runWorker(unit, profile);
  const samples = new Map(selected.map((w) => [w.id, []]));
  const failures = new Map();
  const started = performance.now();
  for (let rep = 1; rep <= profile.reps; rep++) {
    log(`repetition ${rep}/${profile.reps}`);
    await runAll(measurementUnits(selected), inProcess ? 1 : profile.parallel, async (unit) => {
      if (unit.some((spec) => failures.has(spec.id))) return;
      const t0 = performance.now();
      const outcome = await measure(unit);
      const seconds = ((performance.now() - t0) / 1000).toFixed(1);
      const together = unit.length > 1 ? ", interleaved" : "";
      if (outcome.error) {
        for (const spec of unit) failures.set(spec.id, outcome.error);
        log(`  ✗ ${unit.map((spec) => spec.id).join(" + ")}: ${outcome.error.split("\n")[0]}`);
        return;
      }
      unit.forEach((spec, index) => {
        const result = outcome.results[index];
        samples.get(spec.id).push(result);
        log(`  ${spec.id}: ${formatQuick(result.value, spec.unit)}, peak RSS ${(result.maxRssBytes / 2 ** 20).toFixed(0)} MiB (${seconds} s${together})`);
      });
    });
  }
  environment.durationSeconds = Math.round((performance.now() - started) / 1000);

  let summary = summarise({ workloads: selected, samples, failures, environment });
  if (update) summary = updatedSummary(`${out}/results.json`, summary);
  if (out) {
    mkdirSync(out, { recursive: true });
    writeFileSync(`${out}/RESULTS.md`, renderMarkdown(summary) + keptResultsSections(`${out}/RESULTS.md`));
    writeFileSync(`${out}/chart.svg`, renderChart(summary));
    writeFileSync(`${out}/results.json`, `${JSON.stringify(summary, null, 2)}\n`);
    log(`wrote ${out}/RESULTS.md, ${out}/chart.svg, ${out}/results.json`);
  }
  return { summary, failed: [...failures.keys()] };
}

/**
 * A previous full run's rows with the ones just measured in their place (new
 * workloads added in catalog order), every ratio and budget judged again,
 * and the environment saying which rows were measured when.
 */
function updatedSummary(path, fresh) {
  if (!existsSync(path)) throw new RangeError(`--update needs a previous run's ${path}; run the whole bench once first`);
  const previous = JSON.parse(readFileSync(path, "utf8"));
  const measured = new Map(fresh.rows.map((row) => [row.id, row]));
  const kept = new Map(previous.rows.map((row) => [row.id, row]));
  const rows = workloads()
    .map((spec) => measured.get(spec.id) ?? kept.get(spec.id))
    .filter((row) => row !== undefined);
  const update = { date: fresh.environment.date, loadAverageAtStart: fresh.environment.loadAverageAtStart, rows: [...measured.keys()] };
  const environment = { ...previous.environment, updates: [...(previous.environment.updates ?? []), update] };
  return { environment, rows, ...judge(rows) };
}

/**
 * The selected workloads as what one worker measures: a workload alone, or
 * the selected members of an `interleave` set together (lib/interleave.mjs),
 * at the place of the set's first member.
 */
function measurementUnits(selected) {
  const units = [];
  const sets = new Map();
  for (const spec of selected) {
    if (spec.interleave === undefined) units.push([spec]);
    else if (sets.has(spec.interleave)) sets.get(spec.interleave).push(spec);
    else {
      const unit = [spec];
      sets.set(spec.interleave, unit);
      units.push(unit);
    }
  }
  return units;
}

/** Runs `task` over `items`, at most `parallel` at a time, in order. */
async function runAll(items, parallel, task) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, lane));
}

/** One repetition of a unit (one workload, or an interleaved set) in this process; never rejects. */
async function measureHere(unit, profile) {
  try {
    const results = unit.length > 1 ? await measureInterleaved(unit, profile) : [await measureOnce(unit[0], profile)];
    const maxRssBytes = process.resourceUsage().maxRSS * 1024;
    return { results: results.map((result) => ({ ...result, maxRssBytes })) };
  } catch (error) {
    return { error: error?.stack ?? String(error) };
  }
}

/** One repetition of a unit in a fresh process; never rejects. */
function runWorker(unit, profile) {
  // A set warms every member up before its window: its time limit grows with it.
  const timeoutMs = profile.timeoutMs * unit.length;
  return new Promise((resolve) => {
    // The worker (the load client, for HTTP workloads) on one CPU; a server it starts takes the other.
    const flags = unit[0].nodeFlags ?? [];
    const ids = unit.map((spec) => spec.id).join(",");
    const [command, args] = pinned(CLIENT_CPU, [process.execPath, ...flags, WORKER, ids, JSON.stringify(profile)]);
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ error: `could not start the worker: ${error.message}` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        const why = signal === "SIGKILL" ? `timed out after ${timeoutMs} ms` : `exit ${code ?? signal}`;
        return resolve({ error: `${why}: ${stderr.trim() || "(no output)"}` });
      }
      try {
        const printed = JSON.parse(stdout.trim().split("\n").at(-1));
        const results = Array.isArray(printed) ? printed : [printed];
        if (results.length !== unit.length) throw new Error("one result per workload");
        resolve({ results });
      } catch {
        resolve({ error: `the worker printed no result: ${stdout.slice(0, 200)}` });
      }
    });
  });
}

function describeEnvironment(profile, smoke) {
  const cpuList = cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: `${cpuList[0]?.model ?? "unknown"} × ${cpuList.length}`,
    loadAverageAtStart: loadavg()
      .map((v) => v.toFixed(2))
      .join(" "),
    profile: smoke ? "smoke" : "full",
    ...profile,
  };
}

function formatQuick(value, unit) {
  return unit === "bytes" ? `${(value / 1024).toFixed(1)} KiB` : `${Math.round(value).toLocaleString("en-US")} ${unit}`;
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--smoke") options.smoke = true;
    else if (flag === "--strict") options.strict = true;
    else if (flag === "--spawn") options.spawn = true;
    else if (flag === "--reps") options.reps = Number(argv[++i]);
    else if (flag === "--only") options.only = argv[++i].split(",");
    else if (flag === "--update") options.update = true;
    else if (flag === "--out") options.out = argv[++i];
    else throw new TypeError(`unknown flag ${flag}; use --smoke, --spawn, --reps N, --only PREFIX [--update], --out DIR, --strict`);
  }
  options.inProcess = Boolean(options.smoke && !options.spawn);
  // The report committed in bench/ is a full run's (or one --update merged into it): a subset or a smoke run
  // would replace it with a partial one, so without --out it is written to a fresh temporary directory.
  if (options.out === undefined) {
    const partial = options.smoke || (options.only !== undefined && !options.update);
    options.out = partial ? mkdtempSync(join(tmpdir(), "mcp-bench-")) : fileURLToPath(new URL(".", import.meta.url));
  }
  return options;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2));
  const { summary, failed } = await runBench(options);
  const missed = summary.budgets.filter((b) => b.status === "missed");
  if (failed.length) console.error(`\n${failed.length} workload(s) failed: ${failed.join(", ")}`);
  if (missed.length) console.error(`${missed.length} budget(s) missed: ${missed.map((b) => b.id).join(", ")}`);
  process.exitCode = failed.length || (options.strict && missed.length) ? 1 : 0;
  // Each workload closed what it opened, so the loop should drain; if it
  // does not, say which handles stayed open instead of hanging.
  setTimeout(() => {
    console.error(`handles left open after the run: ${process.getActiveResourcesInfo().join(", ")}`);
    process.exit(3);
  }, 5_000).unref();
}
