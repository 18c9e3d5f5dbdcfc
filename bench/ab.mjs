// Two builds of ours side by side: is a change to the request path worth
// anything under load? One server process differs from another of the same
// build by up to ~12 % on the reference VM (bench/PROFILES.md), more than
// most single changes are worth, so each build is measured in several
// rounds, each round a fresh server process of both beside the floors.
//
// `--mode concurrent` (the default) loads every server at the same moment
// (lib/concurrent.mjs), so they share every moment of the machine's other
// load, and rotates which is set up and driven first; the report gives each
// round's B / A and their mean with its 95 % interval (about ±1 % over ten
// rounds, where two processes of the same build agree within it).
// `--mode interleaved` gives each a slice of one window in turn
// (lib/interleave.mjs), as `npm run bench` does, and compares the two
// builds' mean ratios to the floor (about ±10 % over ten rounds on the
// shared VM): what a change does to the bench's own figures. `--awake` keeps
// the load client from ever sleeping, so no server pays for waking it.
//
//   npm run build        # in both trees: each serves its own dist/
//   node bench/ab.mjs --b ../other-tree [--a .] [--rounds 10] [--workload plain|stateless|session|mrtr] [--concurrency 8] [--seconds 4] [--mode concurrent|interleaved] [--awake]
//
// A tree is a checkout of this repository (a git worktree of the commit to
// compare), built. The floors come from tree A: the bare floor and the floor
// with our checks, sent the same calls (for `mrtr`, the MRTR floor alone).
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { optionsOrUsage } from "./lib/cli.mjs";
import { measureConcurrent } from "./lib/concurrent.mjs";
import { keepAwake } from "./lib/drive.mjs";
import { measureInterleaved } from "./lib/interleave.mjs";
import { CLIENT_CPU, pinned } from "./lib/server-process.mjs";
import { meanDifference, pairedMean } from "./lib/stats.mjs";
import { PROFILES } from "./run.mjs";

/**
 * workload → the calls the load client sends, and the floors beside the builds: the bare floor first
 * (every ratio's denominator), then the floor with our checks; an MRTR call (two rounds, a sealed state)
 * is measured against the MRTR floor alone.
 */
const PLAIN_FLOORS = ["echo", "checks"];
const WORKLOADS = {
  plain: { era: "2026-07-28", session: false, floors: PLAIN_FLOORS },
  stateless: { era: "2025-11-25", session: false, floors: PLAIN_FLOORS },
  session: { era: "2025-11-25", session: true, floors: PLAIN_FLOORS },
  mrtr: { era: "2026-07-28", session: false, mrtr: true, floors: ["mrtrFloor"] },
};
/** The column each floor server fills. */
const FLOOR_IDS = { echo: "floor", mrtrFloor: "floor", checks: "checks" };
const USAGE =
  "usage: node bench/ab.mjs --b TREE [--a TREE] [--rounds N] [--workload plain|stateless|session|mrtr] [--concurrency C] [--seconds S] [--mode concurrent|interleaved] [--awake] [--smoke]";
const MODES = new Set(["concurrent", "interleaved"]);

function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      a: { type: "string", default: "." },
      b: { type: "string" },
      rounds: { type: "string", default: "10" },
      workload: { type: "string", default: "plain" },
      concurrency: { type: "string" },
      seconds: { type: "string" },
      mode: { type: "string", default: "concurrent" },
      awake: { type: "boolean", default: false },
      smoke: { type: "boolean", default: false },
    },
  });
  if (values.b === undefined) throw new TypeError(`${USAGE}\n--b names the tree to compare with`);
  if (!Object.hasOwn(WORKLOADS, values.workload)) throw new TypeError(`${USAGE}\nunknown workload ${values.workload}`);
  if (!MODES.has(values.mode)) throw new TypeError(`${USAGE}\nunknown mode ${values.mode}`);
  // Concurrent: four servers share the server CPU, each at 8 lanes and a longer window; interleaved: the bench's own.
  const concurrent = values.mode === "concurrent";
  const count = (flag, minimum) => {
    const given = values[flag] ?? { concurrency: concurrent ? "8" : "16", seconds: concurrent ? "4" : "2" }[flag];
    const value = Number(given);
    if (!Number.isFinite(value) || value < minimum) throw new TypeError(`${USAGE}\n--${flag} must be a number of at least ${minimum}, got ${given}`);
    return value;
  };
  return {
    trees: { A: resolve(values.a), B: resolve(values.b) },
    rounds: count("rounds", 2),
    workload: values.workload,
    concurrency: count("concurrency", 1),
    windowMs: count("seconds", 0.01) * 1000,
    mode: values.mode,
    awake: values.awake,
    smoke: values.smoke,
  };
}

/** One member of the window: `server` of `tree`'s plain-http workload. */
function member(id, tree, server, { era, session, mrtr = false }, concurrency) {
  const module = pathToFileURL(`${tree}/bench/workloads/plain-http.mjs`).href;
  // A floor holds no session: it is sent the 2025 calls without one, as the bench's 2025 floor rows are.
  const sessions = session && server === "ours";
  return { id, mode: "async", concurrency, module, factory: "plainHttp", options: { server, era, session: sessions, mrtr } };
}

/** The members of a round: the floors from tree A, then both builds. */
function roundSpecs(trees, calls, concurrency) {
  return [
    ...calls.floors.map((server) => member(FLOOR_IDS[server], trees.A, server, calls, concurrency)),
    member("A", trees.A, "ours", calls, concurrency),
    member("B", trees.B, "ours", calls, concurrency),
  ];
}

function columnsOf(calls) {
  return [...calls.floors.map((server) => FLOOR_IDS[server]), "A", "B"];
}

function cellsOf(cpu, columns) {
  return columns.map((id) => cpu[id].toFixed(2).padStart(7)).join(" ");
}

async function main({ trees, rounds, workload, concurrency, windowMs, mode, awake, smoke }) {
  const calls = WORKLOADS[workload];
  const timing = { ...(smoke ? PROFILES.smoke : PROFILES.full), windowMs };
  const how = mode === "concurrent" ? "all loaded at once" : "a slice of each in turn";
  const client = awake ? ", the client kept awake" : "";
  console.log(
    `${workload}, c=${concurrency}, ${mode}${client}: ${rounds} rounds, each a fresh process of both builds beside the floors, ${how}, ${windowMs / 1000} s`,
  );
  const columns = columnsOf(calls);
  const heading = columns.map((id) => id.padStart(7)).join(" ");
  console.log(`round ${heading}   (server CPU per call, µs; ${mode === "concurrent" ? "B / A" : "A and B / the floor"})`);
  const ratios = { A: [], B: [], BA: [] };
  for (let round = 1; round <= rounds; round++) {
    const specs = roundSpecs(trees, calls, concurrency);
    // Few processes at a time: idle servers wake for their timers and disturb the one measured.
    const measured =
      mode === "concurrent"
        ? await measureConcurrent(specs, { warmupMs: smoke ? timing.warmup.maxMs : 3000, windowMs, first: round - 1 })
        : await measureInterleaved(specs, timing);
    // Interleaved slices time every window twice, the client asleep and then kept awake (lib/interleave.mjs).
    const figure = mode === "interleaved" && awake ? "awakeServerCpuMicrosPerOp" : "serverCpuMicrosPerOp";
    const cpu = Object.fromEntries(measured.map((result) => [result.id, result[figure]]));
    ratios.A.push(cpu.A / cpu.floor);
    ratios.B.push(cpu.B / cpu.floor);
    ratios.BA.push(cpu.B / cpu.A);
    const tail = mode === "concurrent" ? `${ratios.BA.at(-1).toFixed(3)}` : `${ratios.A.at(-1).toFixed(3)}× ${ratios.B.at(-1).toFixed(3)}×`;
    console.log(`${String(round).padStart(5)} ${cellsOf(cpu, columns)}   ${tail}`);
  }
  if (mode === "concurrent") {
    const { mean, halfWidth } = pairedMean(ratios.BA);
    const meanOf = (sample) => pairedMean(sample).mean.toFixed(3);
    console.log(`A ${trees.A}: ${meanOf(ratios.A)}× the floor, B ${trees.B}: ${meanOf(ratios.B)}× (means of the rounds, under the shared load)`);
    console.log(`B / A: ${mean.toFixed(3)}, 95 % interval ±${halfWidth.toFixed(3)} (paired by round)`);
    return;
  }
  const { meanA, meanB, difference, halfWidth } = meanDifference(ratios.A, ratios.B);
  console.log(`A ${trees.A}: ${meanA.toFixed(3)}× the floor (mean of the rounds)`);
  console.log(`B ${trees.B}: ${meanB.toFixed(3)}× the floor`);
  console.log(`B − A: ${difference >= 0 ? "+" : ""}${difference.toFixed(3)}× the floor, 95 % interval ±${halfWidth.toFixed(3)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const parsed = optionsOrUsage(() => options(process.argv.slice(2)));
  if (process.env.MCP_AB_PINNED === undefined) {
    // The load client on its own CPU, as the bench's workers run: the servers are pinned to the other.
    const [command, args] = pinned(CLIENT_CPU, [process.execPath, ...process.argv.slice(1)]);
    const run = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, MCP_AB_PINNED: "1" } });
    process.exit(run.status ?? 1);
  }
  // Concurrent rounds have one window each: the spin covers the whole run. Interleaved ones time an awake window themselves.
  const release = parsed.awake && parsed.mode === "concurrent" ? keepAwake() : () => {};
  try {
    await main(parsed);
  } finally {
    release();
  }
}
