// Cold start: how long a fresh `node` takes to import an SDK's server and
// client, connect in process, finish one call and exit, minus how long a
// bare `node -e ""` takes on the same machine at the same moment. Each
// repetition spawns the two alternately, so load from other processes hits
// both, and reports the median of the paired differences: wall clock (the
// figure and its budget) and the CPU time each process reports it used
// (steadier on a shared machine, where waiting for a core stretches wall
// time but not CPU time).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "../lib/stats.mjs";
import { ECHO_TEXT } from "./fixtures.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCRIPTS = { ours: "ours.mjs", official: "official.mjs" };
const scriptPath = (name) => fileURLToPath(new URL(`./cold-start/${name}`, import.meta.url));
const RECORD_IMPORTS = scriptPath("record-imports.mjs");
const REPORT_CPU = scriptPath("report-cpu.cjs");
const CPU_LINE = /^BENCH_CPU_MS (\S+)$/m;
/** The module whose loading the report watches: the 2025-11-25 validators, due only on a 2025 client's first message. */
const TABLES_2025 = /\/dist\/runtime\/validate\/tables-2025\.js$/;
const SPAWN_TIMEOUT_MS = 20_000;

/**
 * Runs one `node` and returns its wall time in milliseconds and what it printed.
 * @throws {Error} when it exits non-zero or times out.
 */
function runNode(args, env = process.env) {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", env, timeout: SPAWN_TIMEOUT_MS });
  const ms = performance.now() - started;
  if (run.error) throw new Error(`node ${args.join(" ")} could not run: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} exited ${run.status ?? run.signal}: ${run.stderr.trim()}`);
  return { ms, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Runs one `node` under the CPU reporter.
 * @returns {{ ms: number, cpuMs: number }} wall time, and the CPU time the process used
 * @throws {Error} when it fails or reports no CPU time.
 */
function timedNode(args) {
  const { ms, stderr } = runNode(["--require", REPORT_CPU, ...args]);
  const cpu = CPU_LINE.exec(stderr);
  if (!cpu) throw new Error(`node ${args.join(" ")} reported no CPU time: ${stderr.trim()}`);
  return { ms, cpuMs: Number(cpu[1]) };
}

/** Parses and checks the line a cold-start script prints: the echoed text, in the expected version. */
function checkAnswer(stdout, expectedVersion, what) {
  const answer = JSON.parse(stdout.trim().split("\n").at(-1));
  if (answer.text !== ECHO_TEXT) throw new Error(`${what} answered "${answer.text}", expected "${ECHO_TEXT}"`);
  if (answer.protocolVersion !== expectedVersion) throw new Error(`${what} spoke ${answer.protocolVersion}, expected ${expectedVersion}`);
}

/**
 * One untimed run under the import recorder: what the script printed, which
 * modules it loaded, and whether the 2025 validators were among them.
 */
function recordedRun(args) {
  const dir = mkdtempSync(join(tmpdir(), "mcp-bench-imports-"));
  const log = join(dir, "imports.txt");
  try {
    const { stdout } = runNode(["--import", RECORD_IMPORTS, ...args], { ...process.env, BENCH_IMPORT_LOG: log });
    const urls = new Set(
      readFileSync(log, "utf8")
        .split("\n")
        .filter((url) => url.startsWith("file:")),
    );
    return { stdout, modulesLoaded: urls.size, tables2025Loaded: [...urls].some((url) => TABLES_2025.test(url)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * @param {{ sdk: "ours" | "official", mode?: string, protocolVersion: string, spawns: number }} options
 *   `mode` is passed to our script as the client's mode; `protocolVersion` is what the call must be spoken in;
 *   `spawns` is how many (bare, cold start) pairs a repetition times
 * @returns {Promise<{ value: number, cpuAboveMs: number, startMs: number, bareMs: number, modulesLoaded: number, flags?: { tables2025Loaded: boolean } }>}
 *   `value`: median wall milliseconds above bare node; `cpuAboveMs`: the same for CPU time;
 *   `flags` (ours only): whether the 2025 validators loaded
 */
export async function coldStart({ sdk, mode, protocolVersion, spawns }) {
  if (!Object.hasOwn(SCRIPTS, sdk)) throw new RangeError(`coldStart: sdk must be "ours" or "official", got ${sdk}`);
  if (!(Number.isInteger(spawns) && spawns >= 1)) throw new RangeError(`coldStart: spawns must be a positive integer, got ${spawns}`);
  const args = [scriptPath(SCRIPTS[sdk]), ...(mode === undefined ? [] : [mode])];
  // The recorded run comes first, untimed: it checks the answer and brings the files into the page cache.
  const { stdout, modulesLoaded, tables2025Loaded } = recordedRun(args);
  checkAnswer(stdout, protocolVersion, `the ${sdk} cold start`);
  const bare = [];
  const start = [];
  const above = [];
  const cpuAbove = [];
  for (let i = 0; i < spawns; i++) {
    const bareRun = timedNode(["-e", ""]);
    const startRun = timedNode(args);
    bare.push(bareRun.ms);
    start.push(startRun.ms);
    above.push(startRun.ms - bareRun.ms);
    cpuAbove.push(startRun.cpuMs - bareRun.cpuMs);
  }
  // The official SDK has no such module: the flag is ours alone.
  const flags = sdk === "ours" ? { tables2025Loaded } : undefined;
  return { value: median(above), cpuAboveMs: median(cpuAbove), startMs: median(start), bareMs: median(bare), modulesLoaded, ...(flags && { flags }) };
}
