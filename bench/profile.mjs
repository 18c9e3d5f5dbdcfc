// Where a server's CPU goes: runs one HTTP workload's server in a process of
// its own under `--cpu-prof` (pinned like the bench's servers), drives it
// with the bench's raw load client, and prints the server's CPU per call and
// its self time by source file and by function. Frames in the built package
// are mapped through its source maps to the `.ts` they came from, so the
// bundled chunks read as the modules a maintainer edits.
//
//   npm run build && node bench/profile.mjs plain            # 2026-07-28 tools/call, c=16
//   node bench/profile.mjs mrtr --concurrency 1 --seconds 10
//   node bench/profile.mjs plain --awake                     # the load client kept awake, as the judged window
//   node bench/profile.mjs plain2025 | stateless2025 | elicit | elicitFloor | echo | checks | mrtrFloor | seal
//
// A profile is for finding costs, not for judging them: the sampling itself
// costs the server a few percent. The figures that judge live in RESULTS.md.
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { optionsOrUsage } from "./lib/cli.mjs";
import { driveFor as drive, keepAwake } from "./lib/drive.mjs";
import { rawToolsClient } from "./lib/raw-client.mjs";
import { startServerProcess } from "./lib/server-process.mjs";

const here = (path) => new URL(path, import.meta.url).href;
/** workload → the server process and how the raw client drives it. */
const WORKLOADS = {
  plain: { module: here("./workloads/ours.mjs"), factory: "serveBench", options: { legacy: false }, era: "2026-07-28" },
  mrtr: { module: here("./workloads/ours.mjs"), factory: "serveBench", options: { legacy: false }, era: "2026-07-28", mrtr: true },
  plain2025: { module: here("./workloads/ours.mjs"), factory: "serveBench", options: { legacy: true }, era: "2025-11-25" },
  // A 2025 client without a session, against `legacy: "stateless"`.
  stateless2025: { module: here("./workloads/ours.mjs"), factory: "serveBench", options: { legacy: true, stateless: true }, era: "2025-11-25", session: false },
  // A 2025 session whose call asks one question over the session: our own client answers it.
  elicit: { workload: [here("./workloads/ours.mjs"), "legacyHttp", { elicitation: true }] },
  // The same session call against a bare node:http server with canned answers: the floor under `elicit`.
  elicitFloor: { workload: [here("./workloads/elicit-floor.mjs"), "legacyHttpFloor", {}] },
  echo: { module: here("./workloads/echo.mjs"), factory: "echoServer", options: {}, era: "2026-07-28" },
  // The bare floor with our checks and nothing else (header rules, request, arguments, result).
  checks: { module: here("./workloads/checks-floor.mjs"), factory: "checksFloorServer", options: {}, era: "2026-07-28" },
  // The two rounds of `mrtr` on bare node:http, the state sealed with node:crypto AES-256-GCM: the floor under `mrtr`.
  mrtrFloor: { module: here("./workloads/mrtr-floor.mjs"), factory: "mrtrFloorServer", options: {}, era: "2026-07-28", mrtr: true },
};
const USAGE = `usage: node bench/profile.mjs <${[...Object.keys(WORKLOADS), "seal"].join("|")}> [--concurrency N] [--seconds S] [--warmup S] [--top N] [--awake]`;

function parseArguments(argv) {
  const [workload, ...rest] = argv;
  if (!workload || !(workload in WORKLOADS || workload === "seal")) throw new TypeError(`${USAGE}\nunknown workload ${workload ?? "(none)"}`);
  const options = { workload, concurrency: 16, seconds: 8, warmup: 3, top: 25, awake: false };
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    if (flag === "--awake") {
      options.awake = true;
      continue;
    }
    const value = Number(rest[++i]);
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`${USAGE}\n${flag} needs a positive number`);
    if (flag === "--concurrency") options.concurrency = value;
    else if (flag === "--seconds") options.seconds = value;
    else if (flag === "--warmup") options.warmup = value;
    else if (flag === "--top") options.top = value;
    else throw new TypeError(`${USAGE}\nunknown flag ${flag}`);
  }
  return options;
}

/** Profiles the server of an HTTP workload; resolves the .cpuprofile path and the CPU per call. */
async function profileServer({ workload, concurrency, seconds, warmup }, dir) {
  const spec = WORKLOADS[workload];
  if (spec.workload) return profileBenchWorkload(spec.workload, { concurrency, seconds, warmup }, dir);
  const remote = await startServerProcess(spec.module, spec.factory, spec.options, { nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
  try {
    const client = await rawToolsClient(remote.url, { era: spec.era, session: spec.session, mrtr: spec.mrtr });
    await drive(client.call, concurrency, warmup * 1000); // let the JIT settle before the window
    const before = await remote.cpuMicros();
    const calls = await drive(client.call, concurrency, seconds * 1000);
    const micros = (await remote.cpuMicros()) - before;
    client.close();
    return { calls, cpuPerCall: micros / calls };
  } finally {
    await remote.close(); // the profile is written as the process exits
  }
}

/**
 * Profiles the server process of a bench workload driven by its own client
 * (`call`, `serverCpu`, `close`, as `bench/catalog.mjs` names it): the
 * server-process starter adds the profiler's flags from the environment.
 */
async function profileBenchWorkload([module, factory, options], { concurrency, seconds, warmup }, dir) {
  process.env.MCP_BENCH_SERVER_NODE_FLAGS = `--cpu-prof --cpu-prof-dir=${dir}`;
  const workload = await (await import(module))[factory](options);
  try {
    await drive(workload.call, concurrency, warmup * 1000);
    const before = await workload.serverCpu();
    const calls = await drive(workload.call, concurrency, seconds * 1000);
    return { calls, cpuPerCall: ((await workload.serverCpu()) - before) / calls };
  } finally {
    await workload.close(); // the profile is written as the server process exits
  }
}

/** Profiles seal + verify of the seal workload in this process. */
async function profileSeal({ seconds }) {
  const { Session } = await import("node:inspector/promises");
  const { sealVerify } = await import("./workloads/ours.mjs");
  const workload = await sealVerify({ backend: "node" });
  for (let i = 0; i < 20_000; i++) await workload.call();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  let calls = 0;
  const start = process.cpuUsage();
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    for (let i = 0; i < 1000; i++) workload.check(await workload.call());
    calls += 1000;
  }
  const used = process.cpuUsage(start);
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  return { profile, calls, cpuPerCall: (used.user + used.system) / calls };
}

/** Maps a built file's frame to its `.ts` source, caching each file's map. */
function sourceMapper() {
  const maps = new Map();
  const mapOf = (url) => {
    if (!maps.has(url)) {
      let map = null;
      try {
        const path = fileURLToPath(url);
        const text = readFileSync(path, "utf8");
        const reference = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
        if (reference && !reference.startsWith("data:")) map = new SourceMap(JSON.parse(readFileSync(join(path, "..", reference), "utf8")));
      } catch {
        map = null; // no map, or not a file: keep the built name
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  return (frame) => {
    const map = frame.url.startsWith("file:") && frame.url.includes("/dist/") ? mapOf(frame.url) : null;
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry?.originalSource) return { file: entry.originalSource.replace(/^.*?\/(runtime|generated)\//, "$1/"), line: entry.originalLine + 1 };
    // Code the bundler wrote itself (module glue, helpers) maps to no source.
    if (map) return { file: `${frame.url.replace(/^.*\/dist\//, "dist/")} (no source map entry)`, line: 0 };
    if (!frame.url) return { file: frame.functionName.startsWith("(") ? frame.functionName : "(native)", line: 0 };
    if (frame.url.startsWith("node:")) return { file: frame.url, line: frame.lineNumber + 1 };
    return { file: frame.url.replace(/^.*\/(node_modules|bench)\//, "$1/"), line: frame.lineNumber + 1 };
  };
}

/**
 * Self time of a .cpuprofile by file and by function, idle excluded, as
 * shares of busy time. A native frame (a syscall, the cipher's C++) counts
 * for the file of the nearest JavaScript frame that called it, so the file
 * table says whose work it was.
 */
function summarize(profile, top) {
  const locate = sourceMapper();
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const caller = (id) => {
    let node = nodes.get(id);
    while (node && !node.callFrame.url && parents.has(node.id)) node = nodes.get(parents.get(node.id));
    return node?.callFrame.url ? node.callFrame : nodes.get(id).callFrame;
  };
  const byFile = new Map();
  const byFunction = new Map();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const frame = nodes.get(profile.samples[i]).callFrame;
    if (frame.functionName === "(idle)") continue;
    const delta = profile.timeDeltas[i] ?? 0;
    const { file, line } = locate(frame);
    const name = `${frame.functionName || "(anonymous)"}  ${file}${line ? `:${line}` : ""}`;
    const owner = frame.url || frame.functionName.startsWith("(") ? file : locate(caller(profile.samples[i])).file;
    byFile.set(owner, (byFile.get(owner) ?? 0) + delta);
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
    busy += delta;
  }
  const table = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, value]) => `${((100 * value) / busy).toFixed(1).padStart(6)} %  ${key}`)
      .join("\n");
  return `self time by source file (share of busy time):\n${table(byFile)}\n\nself time by function:\n${table(byFunction)}`;
}

const options = optionsOrUsage(() => parseArguments(process.argv.slice(2)));
// The load client kept awake, as the bench's judged window has it (lib/measure.mjs, awakeWindow).
const release = options.awake ? keepAwake() : () => {};
let result;
if (options.workload === "seal") {
  result = await profileSeal(options);
} else {
  const dir = mkdtempSync(join(tmpdir(), "mcp-profile-"));
  const figures = await profileServer(options, dir);
  const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error(`the server process wrote no profile into ${dir}`);
  result = { ...figures, profile: JSON.parse(readFileSync(join(dir, file), "utf8")) };
}
release();
const what =
  options.workload === "seal"
    ? "seal + verify, in process"
    : `${options.workload}, c=${options.concurrency}, server process${options.awake ? ", the client kept awake" : ""}`;
console.log(`${what}: ${result.cpuPerCall.toFixed(1)} µs CPU per call over ${result.calls} calls (sampling on)\n`);
console.log(summarize(result.profile, options.top));
