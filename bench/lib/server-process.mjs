// A benchmark server in a process of its own, pinned to a CPU of its own, so
// the figure that judges it is that process's CPU time per completed call
// (utime + stime over the measured window), with no client work in it.
// The load client runs in the worker process, pinned to the other CPU (see
// pinned() and run.mjs). `bench/server-host.mjs` is the child's entry.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";

const HOST = fileURLToPath(new URL("../server-host.mjs", import.meta.url));
const TASKSET = "/usr/bin/taskset";
/** The CPU the load client (the worker) runs on; servers take the next one. */
export const CLIENT_CPU = 0;
const SERVER_CPU = 1;
const START_TIMEOUT_MS = 30_000;
/** Node flags for every server process besides a workload's own: `bench/profile.mjs` sets `--cpu-prof` here. */
const EXTRA_FLAGS_VARIABLE = "MCP_BENCH_SERVER_NODE_FLAGS";

/**
 * The command line that runs `args` (node first) pinned to `cpu` with
 * `taskset`, where the machine has the tool and more than one CPU; unpinned
 * elsewhere (the figures are then less clean, not wrong).
 * @param {number} cpu
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
export function pinned(cpu, args) {
  if (!existsSync(TASKSET) || cpus().length < 2) return [args[0], args.slice(1)];
  return [TASKSET, ["-c", String(cpu), ...args]];
}

/**
 * Starts `factory(options)` of `module` in a child process pinned to the
 * server CPU. The factory returns `{ url, close }` (and may return
 * `heapUsed()`); the child reports its CPU time on request.
 * @param {string} module absolute URL of the module exporting the factory
 * @param {string} factory
 * @param {object} [options]
 * @param {{ nodeFlags?: string[] }} [process]
 * @returns {Promise<{ url: string, cpuMicros(): Promise<number>, request(type: string): Promise<any>, close(): Promise<void> }>}
 * @throws {Error} when the child cannot start the server.
 */
export async function startServerProcess(module, factory, options = {}, { nodeFlags = [] } = {}) {
  const extra = process.env[EXTRA_FLAGS_VARIABLE]?.split(" ").filter(Boolean) ?? [];
  const [command, args] = pinned(SERVER_CPU, [process.execPath, ...nodeFlags, ...extra, HOST, module, factory, JSON.stringify(options)]);
  const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting = new Map();
  let next = 0;
  let exited;
  const gone = new Promise((resolve) => child.once("exit", (code, signal) => resolve((exited = code ?? signal))));
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${factory}: the server process did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    child.on("message", (message) => {
      if (message.type === "ready") {
        clearTimeout(timer);
        resolve(message.url);
      } else if (message.type === "failed") {
        clearTimeout(timer);
        reject(new Error(`${factory}: ${message.error}`));
      } else {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    });
    gone.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${factory}: the server process exited (${code}) before it was ready`));
    });
  });
  const request = (type) => {
    if (exited !== undefined) return Promise.reject(new Error(`${factory}: the server process has exited (${exited})`));
    const id = ++next;
    return new Promise((resolve, reject) => {
      waiting.set(id, (message) => (message.error ? reject(new Error(message.error)) : resolve(message.value)));
      child.send({ type, id });
    });
  };
  let url;
  try {
    url = await ready;
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    url,
    request,
    cpuMicros: () => request("cpu"),
    async close() {
      if (exited === undefined) await request("close").catch(() => {});
      const code = await gone;
      if (code !== 0) throw new Error(`${factory}: the server process exited with ${code} (left handles open?)`);
    },
  };
}
