// The JavaScript runtimes other than this Node that tests run built code
// under: Deno and Bun from their pinned npm packages (the binary ships inside
// the package), and the Node 22 that tools/conformance pins. Each runs a
// script from dist/ as a child process on 127.0.0.1.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { root } from "../client/ensure-built.js";

/** A runtime a test can run a built script under. */
export interface Runtime {
  /** What tests call it ("Deno", "Bun", "Node 22"). */
  name: string;
  /** The executable. */
  program: string;
  /** Arguments that go before the script's path. */
  args: readonly string[];
  /** Extra environment for the child. */
  env: Record<string, string>;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Deno from npm `deno`, with network access to loopback only. */
export const deno: Runtime = {
  name: "Deno",
  program: join(root, "node_modules/.bin/deno"),
  args: ["run", "--no-lock", "--allow-net=127.0.0.1", "--allow-env", "--allow-read"],
  env: { DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
};

/** Bun from npm `bun`. */
export const bun: Runtime = {
  name: "Bun",
  program: join(root, "node_modules/.bin/bun"),
  args: [],
  env: { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0", DO_NOT_TRACK: "1" },
};

const conformanceTools = join(root, "tools/conformance");
const node22Path = join(conformanceTools, "node_modules/node/bin/node");

/**
 * The Node 22 pinned in tools/conformance (npm `node`), installed there
 * first when it is missing (`npm ci --prefix tools/conformance`, the step
 * scripts/conformance.mjs also runs), under a lock because test files run in
 * parallel.
 */
export function node22(): Runtime {
  if (!existsSync(node22Path)) {
    const lock = join(root, "node_modules", ".mcp-roundtrip-node22-lock");
    const deadline = Date.now() + 180_000;
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`gave up waiting for another install of tools/conformance (remove ${lock} if it is stale)`);
        pause(200);
      }
    }
    try {
      if (!existsSync(node22Path)) {
        const npm = process.platform === "win32" ? "npm.cmd" : "npm";
        const install = spawnSync(npm, ["ci", "--prefix", conformanceTools, "--no-audit", "--no-fund"], { encoding: "utf8" });
        if (install.status !== 0 || !existsSync(node22Path)) {
          throw new Error(`could not install the pinned Node 22 (npm ci --prefix tools/conformance):\n${install.stderr}`);
        }
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return { name: "Node 22", program: node22Path, args: [], env: {} };
}

/** What a finished child printed. */
export interface RunOutput {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `script` itself when absolute, else `dist/<script>`. */
const scriptPath = (script: string) => (isAbsolute(script) ? script : join(root, "dist", script));

/** Runs `dist/<script>` under `runtime` to completion with empty stdin, killing it after `timeoutMs`. */
export function runScript(runtime: Runtime, script: string, args: readonly string[] = [], timeoutMs = 20_000): Promise<RunOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(runtime.program, [...runtime.args, scriptPath(script), ...args], {
      cwd: root,
      env: { ...process.env, ...runtime.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** A server a test started under another runtime. */
export interface RuntimeServer {
  /** The URL it printed on its `listening <url>` line. */
  url: string;
  /** That whole line (it names the runtime's HTTP server). */
  banner: string;
  /** What it wrote so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `dist/<script>` (or an absolute path) under `runtime` and waits for the line
 * `listening <url> …` it prints once it accepts connections.
 */
export function startServer(runtime: Runtime, script: string, args: readonly string[] = [], timeoutMs = 20_000): Promise<RuntimeServer> {
  const child: ChildProcess = spawn(runtime.program, [...runtime.args, scriptPath(script), ...args], {
    cwd: root,
    env: { ...process.env, ...runtime.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${runtime.name} did not print "listening <url>" for ${script} within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^listening (http:\/\/\S+)(.*)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, banner: match[0], output: () => output, stop });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${runtime.name} exited (${String(code)}) before listening, running ${script}:\n${output}`));
    });
  });
}
