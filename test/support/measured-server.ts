// An MCP server in a child process of its own (the built dist/, node --expose-gc), so that a test
// measures the server's memory alone, not its client's. The test's script defines `mcp` (an
// McpServer) and may add functions to `commands`; the test runs them by name, and `memory()` reports
// the heap after a full GC and the resident set.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { ensureBuilt, root } from "../client/ensure-built.js";

/** The server's memory, in bytes: the heap after a full GC, and the resident set. */
export interface ServerMemory {
  heapUsed: number;
  rss: number;
}

/** A server running in its own process. */
export interface MeasuredServer {
  url: string;
  memory(): Promise<ServerMemory>;
  /** Runs `commands[name](...args)` in the server's process and resolves with what it returned. */
  run(name: string, ...args: unknown[]): Promise<unknown>;
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts `script` (module code that assigns `mcp` and may fill `commands`;
 * `McpServer`, `elicit` and `sleep` are in scope) behind `serveHttp(mcp, options)`.
 */
export async function measuredServer(script: string, options: Record<string, unknown> = {}, nodeFlags: readonly string[] = []): Promise<MeasuredServer> {
  ensureBuilt("runtime/entries/node.js");
  const source = `
    import { serveHttp } from "mcp-roundtrip/node";
    import { McpServer, elicit } from "mcp-roundtrip/server";
    import { createInterface } from "node:readline";
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const commands = {};
    let mcp;
    ${script}
    const handle = await serveHttp(mcp, ${JSON.stringify(options)});
    commands.memory = () => {
      for (let i = 0; i < 3; i++) globalThis.gc();
      const { heapUsed, rss } = process.memoryUsage();
      return { heapUsed, rss };
    };
    createInterface({ input: process.stdin }).on("line", async (line) => {
      const { id, name, args } = JSON.parse(line);
      let answer;
      try {
        answer = { id, result: await commands[name](...args) };
      } catch (error) {
        answer = { id, error: String(error && error.stack || error) };
      }
      process.stdout.write(JSON.stringify(answer) + "\\n");
    });
    process.stdout.write(JSON.stringify({ url: handle.url }) + "\\n");`;
  const child = spawn(process.execPath, ["--expose-gc", ...nodeFlags, "--input-type=module", "-e", source], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let started!: (url: string) => void;
  let failed!: (error: Error) => void;
  const url = new Promise<string>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  child.once("exit", (code) => {
    const error = new Error(`the measured server exited with ${code}: ${stderr}`);
    failed(error);
    for (const pending of waiting.values()) pending.reject(error);
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const message = JSON.parse(line) as { url?: string; id?: number; result?: unknown; error?: string };
    if (message.url !== undefined) return started(message.url);
    const pending = waiting.get(message.id!);
    waiting.delete(message.id!);
    if (message.error !== undefined) pending?.reject(new Error(message.error));
    else pending?.resolve(message.result);
  });
  let next = 0;
  const run = (name: string, ...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.stdin!.write(`${JSON.stringify({ id, name, args })}\n`);
    });
  return {
    url: await url,
    run,
    /** What the server wrote to stderr (its onError reports). */
    stderr: () => stderr,
    memory: () => run("memory") as Promise<ServerMemory>,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
}
