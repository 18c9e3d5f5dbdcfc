// Two builds of ours side by side: is a change to the request path worth
// anything under load? One server process differs from another of the same
// build by up to ~12 % on the reference VM (bench/PROFILES.md), more than
// most single changes are worth, so each build is measured in several
// rounds, each round a fresh server process of both beside the floors, all
// in one window, a slice of each in turn (lib/interleave.mjs); the report
// gives each build's mean ratio to the floor and their difference with its
// 95 % interval.
//
//   npm run build        # in both trees: each serves its own dist/
//   node bench/ab.mjs --b ../other-tree [--a .] [--rounds 6] [--workload plain|stateless|session] [--concurrency 16] [--seconds 2]
//
// A tree is a checkout of this repository (a git worktree of the commit to
// compare), built. The floors come from tree A: the bare floor and the floor
// with our checks, sent the same calls.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { optionsOrUsage } from "./lib/cli.mjs";
import { measureInterleaved } from "./lib/interleave.mjs";
import { CLIENT_CPU, pinned } from "./lib/server-process.mjs";
import { meanDifference } from "./lib/stats.mjs";
import { PROFILES } from "./run.mjs";

/** workload → the calls the load client sends. */
const WORKLOADS = {
  plain: { era: "2026-07-28", session: false },
  stateless: { era: "2025-11-25", session: false },
  session: { era: "2025-11-25", session: true },
};
const USAGE = "usage: node bench/ab.mjs --b TREE [--a TREE] [--rounds N] [--workload plain|stateless|session] [--concurrency C] [--seconds S] [--smoke]";

function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      a: { type: "string", default: "." },
      b: { type: "string" },
      rounds: { type: "string", default: "6" },
      workload: { type: "string", default: "plain" },
      concurrency: { type: "string", default: "16" },
      seconds: { type: "string", default: "2" },
      smoke: { type: "boolean", default: false },
    },
  });
  if (values.b === undefined) throw new TypeError(`${USAGE}\n--b names the tree to compare with`);
  if (!Object.hasOwn(WORKLOADS, values.workload)) throw new TypeError(`${USAGE}\nunknown workload ${values.workload}`);
  const count = (flag, minimum) => {
    const value = Number(values[flag]);
    if (!Number.isFinite(value) || value < minimum) throw new TypeError(`${USAGE}\n--${flag} must be a number of at least ${minimum}, got ${values[flag]}`);
    return value;
  };
  return {
    trees: { A: resolve(values.a), B: resolve(values.b) },
    rounds: count("rounds", 2),
    workload: values.workload,
    concurrency: count("concurrency", 1),
    windowMs: count("seconds", 0.01) * 1000,
    smoke: values.smoke,
  };
}

/** One member of the window: `server` of `tree`'s plain-http workload. */
function member(id, tree, server, { era, session }, concurrency) {
  const module = pathToFileURL(`${tree}/bench/workloads/plain-http.mjs`).href;
  return { id, mode: "async", concurrency, module, factory: "plainHttp", options: { server, era, session } };
}

async function main({ trees, rounds, workload, concurrency, windowMs, smoke }) {
  const calls = WORKLOADS[workload];
  const timing = { ...(smoke ? PROFILES.smoke : PROFILES.full), windowMs };
  console.log(`${workload}, c=${concurrency}: ${rounds} rounds, each a fresh process of both builds beside the floors, ${windowMs / 1000} s each`);
  console.log("round   floor  checks       A       B   (server CPU per call, µs; A and B also / the floor)");
  const ratios = { A: [], B: [] };
  for (let round = 1; round <= rounds; round++) {
    // Few processes at a time: idle servers wake for their timers and disturb the one measured.
    const specs = [
      member("floor", trees.A, "echo", calls, concurrency),
      member("checks", trees.A, "checks", calls, concurrency),
      member("A", trees.A, "ours", calls, concurrency),
      member("B", trees.B, "ours", calls, concurrency),
    ];
    const cpu = Object.fromEntries((await measureInterleaved(specs, timing)).map((result) => [result.id, result.serverCpuMicrosPerOp]));
    ratios.A.push(cpu.A / cpu.floor);
    ratios.B.push(cpu.B / cpu.floor);
    const cells = ["floor", "checks", "A", "B"].map((id) => cpu[id].toFixed(2).padStart(7)).join(" ");
    console.log(`${String(round).padStart(5)} ${cells}   ${ratios.A.at(-1).toFixed(3)}× ${ratios.B.at(-1).toFixed(3)}×`);
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
  await main(parsed);
}
