// Cold start: how long a fresh `node` takes to import an SDK's server and
// client, connect in process, finish one call and exit, minus how long a
// bare `node -e ""` takes on the same machine at the same moment. Each
// repetition spawns the two alternately, so load from other processes hits
// both, and reports the median of the paired differences: wall clock (the
// figure and its budget) and the CPU time each process reports it used
// (steadier on a shared machine, where waiting for a core stretches wall
// time but not CPU time).
import { spawn, spawnSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "../lib/stats.mjs";
import { ECHO_TEXT, toolsCallRequest } from "./fixtures.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCRIPTS = { ours: "ours.mjs", official: "official.mjs" };
const scriptPath = (name) => fileURLToPath(new URL(`./cold-start/${name}`, import.meta.url));
const RECORD_IMPORTS = scriptPath("record-imports.mjs");
const REPORT_CPU = scriptPath("report-cpu.cjs");
const CPU_LINE = /^BENCH_CPU_MS (\S+)$/m;
/**
 * The module whose loading the report watches: the 2025-11-25 validators, due only on a 2025 client's first
 * message. Per file as tsc emits it, or the lazy chunk the bundled entries load it from (scripts/bundle-entries.mjs).
 */
const TABLES_2025 = /\/dist\/runtime\/(?:validate\/tables-2025|chunks\/tables-2025-[A-Z0-9]+)\.js$/;
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

const HTTP_SCRIPTS = { ours: "http-ours.mjs", bare: "http-bare.mjs", tmcp: "http-tmcp.mjs" };

/**
 * One HTTP cold start: spawns `node script` (under the CPU reporter), reads
 * the URL it prints, sends one 2026-07-28 `tools/call` and checks the
 * answer, then stops it with SIGTERM.
 * @returns {Promise<{ ms: number, cpuMs: number }>} spawn → verified answer, and the CPU time the server process used in all
 * @throws {Error} when it does not answer the echoed text in time.
 */
function httpColdStartOnce(script) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--require", REPORT_CPU, script], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let ms;
    const timer = setTimeout(() => child.kill("SIGKILL"), SPAWN_TIMEOUT_MS);
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", async (chunk) => {
      stdout += chunk;
      if (ms !== undefined || !stdout.includes("\n")) return;
      ms = -1;
      try {
        const text = await postToolsCall(stdout.trim());
        if (text !== ECHO_TEXT) throw new Error(`answered "${text}", expected "${ECHO_TEXT}"`);
        ms = performance.now() - started;
      } catch (error) {
        stderr += `\n${error.message}`;
      }
      child.kill("SIGTERM");
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const cpu = CPU_LINE.exec(stderr);
      if (!(ms > 0) || code !== 0 || !cpu) return reject(new Error(`${script}: no verified answer (exit ${code}): ${stderr.trim()}`));
      resolve({ ms, cpuMs: Number(cpu[1]) });
    });
  });
}

/** One 2026-07-28 `tools/call` of the echo tool on a fresh connection; resolves the text it answered. */
function postToolsCall(url) {
  const body = JSON.stringify(toolsCallRequest(1));
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "echo",
          "content-length": Buffer.byteLength(body),
          connection: "close",
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => {
          try {
            const json = text.startsWith("{")
              ? text
              : text
                  .split("\n")
                  .findLast((line) => line.startsWith("data:"))
                  ?.slice(5);
            resolve(JSON.parse(json).result?.content?.[0]?.text);
          } catch (error) {
            reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)} (${error.message})`));
          }
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/**
 * Cold start over HTTP, as a server is started in production: spawn a node
 * that serves one tool, then time spawn → the first verified `tools/call`
 * answer from outside (the figure), alternately with the same for the
 * baseline script (`paired`, when given), repetition after repetition.
 * @param {{ sdk: "ours" | "bare" | "tmcp", spawns: number }} options
 * @returns {Promise<{ value: number, cpuMs: number }>} median ms spawn → answer, and the median CPU time of the server process
 */
export async function httpColdStart({ sdk, spawns }) {
  if (!Object.hasOwn(HTTP_SCRIPTS, sdk)) throw new RangeError(`httpColdStart: sdk must be one of ${Object.keys(HTTP_SCRIPTS).join(", ")}, got ${sdk}`);
  if (!(Number.isInteger(spawns) && spawns >= 1)) throw new RangeError(`httpColdStart: spawns must be a positive integer, got ${spawns}`);
  const script = scriptPath(HTTP_SCRIPTS[sdk]);
  await httpColdStartOnce(script); // untimed: brings the files into the page cache
  const runs = [];
  for (let i = 0; i < spawns; i++) runs.push(await httpColdStartOnce(script));
  return { value: median(runs.map((run) => run.ms)), cpuMs: median(runs.map((run) => run.cpuMs)) };
}
